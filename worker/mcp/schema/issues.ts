// The English lines of zod issues are shared with the client and the checks, which show them too.
export { describeIssues, issueText } from "../../../shared/zod-issues.ts";

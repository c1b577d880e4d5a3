import type * as z from "zod/mini";
import { issueText } from "../../zod-issues.ts";
import { AuthError, type AuthStepName } from "./errors.ts";

/** Which document is being read, for the words of its errors. */
export type DocumentKind = { step: AuthStepName; rule: string; what: string };

/** Reads a 200 JSON document of the expected shape, or fails saying what the server sent instead. */
export async function readJson<T>(
  url: string,
  response: Response,
  schema: z.ZodMiniType<T>,
  kind: DocumentKind,
): Promise<T> {
  const text = await response.text();
  if (response.status !== 200) {
    throw new AuthError(
      kind.step,
      kind.rule,
      `The ${kind.what} at ${url} answered HTTP ${response.status}, not 200.`,
      {
        fix: `The server's owner must serve the ${kind.what} there with status 200, or answer 404 where there is none.`,
        url,
        httpStatus: response.status,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AuthError(kind.step, kind.rule, `The ${kind.what} at ${url} is not JSON.`, {
      fix: `The server's owner must serve the ${kind.what} there as a JSON object (Content-Type: application/json).`,
      url,
      httpStatus: 200,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join(".")}"` : "the document";
    throw new AuthError(
      kind.step,
      kind.rule,
      `The ${kind.what} at ${url} is malformed: ${where}: ${issue ? issueText(issue, json) : "invalid"}.`,
      { fix: `The server's owner must correct ${where} (${kind.rule}).`, url, httpStatus: 200 },
    );
  }
  return parsed.data;
}

// Conformance checks of MCP traffic, shared by the playground's wire view and the CLI.
export { checkRequest } from "./request.ts";
export { requestEra } from "./era/index.ts";
export { checkServerMessage, type MessageContext } from "./message.ts";
export { checkHttpReply, type ReplyContext } from "./reply.ts";
export type { Finding } from "./finding.ts";
export type { HeaderBag } from "./headers.ts";

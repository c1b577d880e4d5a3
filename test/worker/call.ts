import { exports } from "cloudflare:workers";
import { mcpRequest } from "../support/mcp-request.ts";
import { readReply, type Reply } from "../support/reply.ts";

type Options = Parameters<typeof mcpRequest>[2];

/** Sends a 2026-07-28 request to the Worker under test and reads the schema-checked reply. */
export async function call(
  method: string,
  params: Record<string, unknown> = {},
  options: Options = {},
): Promise<Reply> {
  return readReply(await exports.default.fetch(mcpRequest(method, params, options)), method);
}

/** Sends any request to the Worker under test and reads the schema-checked reply. */
export async function send(
  request: Request,
  method: string,
  era: "2026" | "2025" = "2026",
): Promise<Reply> {
  return readReply(await exports.default.fetch(request), method, era);
}

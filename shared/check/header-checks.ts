import { isJsonObject } from "../jsonrpc.ts";
import type { JsonObject } from "../protocol/messages.ts";
import { ErrorCode } from "../protocol/errors.ts";
import { Header } from "../protocol/headers.ts";
import { MetaKey } from "../protocol/meta.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import type { CheckContext } from "./context.ts";
import { refusal } from "./expect.ts";
import type { Exchange, Tweaks } from "./probe.ts";

/** A tool no server has: calls to it are refused before anything runs. */
export const ABSENT_TOOL = "edgemcp_check_absent_tool";
const UNSUPPORTED_VERSION = "2099-01-01";

type Refusal = {
  id: string;
  title: string;
  method: "tools/list" | "tools/call";
  tweaks: Tweaks;
  code: number;
  /** More to check on the refusal than its code and status. */
  also?: (exchange: Exchange) => string | undefined;
};

const CALL_ABSENT = { name: ABSENT_TOOL, arguments: {} };

/** What the `-32022` refusal's data must name: the supported versions and the one asked for. */
function versionData(exchange: Exchange): string | undefined {
  const data: unknown = exchange.error?.data;
  const supported = isJsonObject(data) ? data.supported : undefined;
  if (!Array.isArray(supported) || !supported.includes(MODERN_VERSION)) {
    return `data.supported should list ${MODERN_VERSION}, got ${JSON.stringify(data)}`;
  }
  if (isJsonObject(data) && data.requested !== UNSUPPORTED_VERSION) {
    return `data.requested should be "${UNSUPPORTED_VERSION}", got ${JSON.stringify(data.requested)}`;
  }
  return undefined;
}

/** Requests that break one header or `_meta` rule each, and the refusal each must get. */
const REFUSALS: Refusal[] = [
  {
    id: "headers.method-missing",
    title: "A request without Mcp-Method is refused (HTTP 400, -32020)",
    method: "tools/list",
    tweaks: { headers: { [Header.method]: null } },
    code: ErrorCode.HeaderMismatch,
  },
  {
    id: "headers.method-mismatch",
    title: "An Mcp-Method that differs from the body is refused (HTTP 400, -32020)",
    method: "tools/list",
    tweaks: { headers: { [Header.method]: "prompts/list" } },
    code: ErrorCode.HeaderMismatch,
  },
  {
    id: "headers.version-missing",
    title: "A request without MCP-Protocol-Version is refused (HTTP 400, -32020)",
    method: "tools/list",
    tweaks: { headers: { [Header.protocolVersion]: null } },
    code: ErrorCode.HeaderMismatch,
  },
  {
    id: "headers.version-mismatch",
    title: "An MCP-Protocol-Version that differs from _meta is refused (HTTP 400, -32020)",
    method: "tools/list",
    tweaks: { headers: { [Header.protocolVersion]: "2025-11-25" } },
    code: ErrorCode.HeaderMismatch,
  },
  {
    id: "headers.name-missing",
    title: "A tools/call without Mcp-Name is refused (HTTP 400, -32020)",
    method: "tools/call",
    tweaks: { headers: { [Header.name]: null } },
    code: ErrorCode.HeaderMismatch,
  },
  {
    id: "headers.name-mismatch",
    title: "An Mcp-Name that differs from the tool's name is refused (HTTP 400, -32020)",
    method: "tools/call",
    tweaks: { headers: { [Header.name]: "edgemcp_check_other_tool" } },
    code: ErrorCode.HeaderMismatch,
  },
  {
    id: "headers.meta-version-missing",
    title: "_meta without the protocol version is refused (HTTP 400, -32602)",
    method: "tools/list",
    tweaks: { dropMeta: [MetaKey.protocolVersion] },
    code: ErrorCode.InvalidParams,
  },
  {
    id: "headers.meta-capabilities-missing",
    title: "_meta without the client capabilities is refused (HTTP 400, -32602)",
    method: "tools/list",
    tweaks: { dropMeta: [MetaKey.clientCapabilities] },
    code: ErrorCode.InvalidParams,
  },
  {
    id: "headers.version-unsupported",
    title: "An unsupported version is refused (HTTP 400, -32022) naming the supported ones",
    method: "tools/list",
    tweaks: { version: UNSUPPORTED_VERSION },
    code: ErrorCode.UnsupportedProtocolVersion,
    also: versionData,
  },
];

/** Headers against bodies, `_meta` keys and versions: each broken request must be refused. */
export async function headerChecks(ctx: CheckContext): Promise<void> {
  for (const check of REFUSALS) {
    if (!ctx.applies("headers", check.id, check.title)) continue;
    const params: JsonObject = check.method === "tools/call" ? CALL_ABSENT : {};
    const exchange = await ctx.probe.modern(check.method, params, check.tweaks);
    const problem = refusal(exchange, check.code, 400) ?? check.also?.(exchange);
    ctx.expect("headers", check.id, check.title, problem);
  }
}

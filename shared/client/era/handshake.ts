import type { ClientCapabilities } from "../../protocol/capabilities.ts";
import { Header } from "../../protocol/headers.ts";
import { InitializeResultSchema, type InitializeResult } from "../../protocol/results.ts";
import { LEGACY_VERSIONS } from "../../protocol/versions.ts";
import type { Connection } from "../connection.ts";
import { McpError } from "../errors.ts";
import { exchange, notify } from "../exchange.ts";
import { parseResult } from "../parse.ts";
import { legacy } from "./legacy.ts";

// 2024-11-05 requests look the same as 2025-03-26 ones for everything this client sends.
const ACCEPTED_VERSIONS: readonly string[] = [...LEGACY_VERSIONS, "2024-11-05"];

/** The capabilities as a 2025 `initialize` states them (extensions did not exist yet). */
function handshakeCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  const { extensions: _extensions, ...rest } = capabilities;
  return rest;
}

/**
 * The 2025 handshake: `initialize` (keeping the `Mcp-Session-Id` the server may set), a check
 * of the version it chose, then `notifications/initialized`. No GET stream is opened.
 */
export async function initialize(
  conn: Connection,
  signal: AbortSignal | undefined,
): Promise<InitializeResult> {
  conn.protocolVersion = undefined;
  conn.sessionId = undefined;
  const raw = await exchange(conn, legacy, {
    method: "initialize",
    params: {
      protocolVersion: LEGACY_VERSIONS[0],
      capabilities: handshakeCapabilities(conn.capabilities),
      clientInfo: conn.clientInfo,
    },
    onHeaders: (headers) => {
      conn.sessionId = headers.get(Header.sessionId) ?? undefined;
    },
    ...(signal ? { signal } : {}),
  });
  const result = parseResult(InitializeResultSchema, raw, { era: "legacy", method: "initialize" });
  if (!ACCEPTED_VERSIONS.includes(result.protocolVersion)) {
    throw new McpError(
      `The server chose protocol version ${result.protocolVersion}, which this client does not speak.`,
      {
        kind: "protocol",
        era: "legacy",
        method: "initialize",
        data: { protocolVersion: result.protocolVersion },
      },
    );
  }
  conn.protocolVersion = result.protocolVersion;
  await notify(conn, legacy, "notifications/initialized", {});
  return result;
}

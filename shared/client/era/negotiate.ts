import * as z from "zod/mini";
import { ErrorCode } from "../../protocol/errors.ts";
import { DiscoverResultSchema, type DiscoverResult } from "../../protocol/results.ts";
import { isHandshakeEraVersion } from "../../protocol/versions.ts";
import type { Connection } from "../connection.ts";
import { describeDiscovered, describeInitialized, type ServerDescription } from "../description.ts";
import { McpError } from "../errors.ts";
import { exchange } from "../exchange.ts";
import type { ClientEra } from "./era.ts";
import { initialize } from "./handshake.ts";
import { legacy } from "./legacy.ts";
import { modern } from "./modern.ts";

/** What the `server/discover` probe showed: a 2026 server (and its answer), or a 2025 one. */
type ProbeOutcome =
  { era: "modern"; version: string; discover: DiscoverResult } | { era: "legacy" };

type Verdict = { type: "retry"; version: string } | { type: "legacy" } | { type: "fail" };

const SupportedSchema = z.object({ supported: z.array(z.string()) });

/**
 * Reads a failed probe. Only a recognised 2026 reply means modern: -32022 names the versions to
 * retry with (once), and -32020/-32021 are refusals by a 2026 server. Other JSON-RPC errors and
 * 4xx replies mean a 2025 server; auth refusals, 5xx and network failures are real failures.
 */
function verdictOn(error: unknown, versions: readonly string[], tried: readonly string[]): Verdict {
  if (!(error instanceof McpError)) return { type: "fail" };
  if (error.kind === "rpc" && error.code === ErrorCode.UnsupportedProtocolVersion) {
    const supported = SupportedSchema.safeParse(error.data);
    if (!supported.success) return { type: "fail" };
    const mutual = versions.find((v) => supported.data.supported.includes(v) && !tried.includes(v));
    if (mutual !== undefined)
      return tried.length < 2 ? { type: "retry", version: mutual } : { type: "fail" };
    const legacyOnly = supported.data.supported.every(isHandshakeEraVersion);
    return legacyOnly ? { type: "legacy" } : { type: "fail" };
  }
  if (error.kind === "rpc") {
    const modern =
      error.code === ErrorCode.HeaderMismatch ||
      error.code === ErrorCode.MissingRequiredClientCapability;
    return modern ? { type: "fail" } : { type: "legacy" };
  }
  if (error.kind === "http" && error.status !== undefined) {
    const legacy =
      error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
    return legacy ? { type: "legacy" } : { type: "fail" };
  }
  return { type: "fail" };
}

/**
 * Probes with `server/discover` at the preferred 2026 version (retrying once with a mutual
 * version if the server names one) and tells which era the server speaks.
 */
async function probe(
  conn: Connection,
  versions: readonly string[],
  signal: AbortSignal | undefined,
): Promise<ProbeOutcome> {
  const tried: string[] = [];
  let version = versions[0];
  while (version !== undefined) {
    tried.push(version);
    conn.protocolVersion = version;
    const attempt = await exchange(conn, modern, {
      method: "server/discover",
      params: {},
      ...(signal ? { signal } : {}),
    }).then(
      (raw) => ({ raw }),
      (error: unknown) => ({ error }),
    );
    if ("error" in attempt) {
      const verdict = verdictOn(attempt.error, versions, tried);
      if (verdict.type === "legacy") return { era: "legacy" };
      if (verdict.type === "fail") throw attempt.error;
      version = verdict.version;
      continue;
    }
    const discover = DiscoverResultSchema.safeParse(attempt.raw);
    if (!discover.success) return { era: "legacy" };
    const mutual = versions.find((v) => discover.data.supportedVersions.includes(v));
    if (mutual !== undefined) return { era: "modern", version: mutual, discover: discover.data };
    if (discover.data.supportedVersions.some(isHandshakeEraVersion)) return { era: "legacy" };
    throw new McpError("The server supports none of the client's protocol versions.", {
      kind: "protocol",
      era: "modern",
      method: "server/discover",
      data: { supported: discover.data.supportedVersions, offered: versions },
    });
  }
  throw new McpError("The client offers no protocol version.", { kind: "client" });
}

/** The era a server speaks, what it said about itself, and its discover result (2026). */
export type Negotiated = {
  era: ClientEra;
  description: ServerDescription;
  discovered?: DiscoverResult;
};

/**
 * Finds the era a server speaks: probes with `server/discover` and, unless the answer is a
 * recognised 2026 reply, falls back to the 2025 `initialize` handshake (at once, when the
 * caller knows the server speaks only 2025).
 */
export async function negotiate(
  conn: Connection,
  versions: readonly string[],
  handshake: "probe" | "initialize" | undefined,
  signal: AbortSignal | undefined,
): Promise<Negotiated> {
  const outcome: ProbeOutcome =
    handshake === "initialize" ? { era: "legacy" } : await probe(conn, versions, signal);
  if (outcome.era === "legacy") {
    return { era: legacy, description: describeInitialized(await initialize(conn, signal)) };
  }
  conn.protocolVersion = outcome.version;
  const description = describeDiscovered(outcome.discover, outcome.version);
  return { era: modern, description, discovered: outcome.discover };
}

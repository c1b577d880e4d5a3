import type { JsonObject, JsonRpcId } from "../protocol/messages.ts";
import { MetaKey, type LogLevel } from "../protocol/meta.ts";
import type { Connection } from "./connection.ts";

/** The optional `_meta` members of one request. */
export type EnvelopeExtras = {
  progressToken?: JsonRpcId;
  logLevel?: LogLevel;
  meta?: Record<string, unknown>;
};

/**
 * A request's params with its `_meta`: on 2026 the full envelope (version, client info and
 * capabilities, and the optional progress token and log level); on 2025 only what the caller
 * added and the progress token.
 */
export function withEnvelope(
  conn: Connection,
  params: JsonObject,
  extras: EnvelopeExtras,
): JsonObject {
  const token =
    extras.progressToken === undefined ? {} : { [MetaKey.progressToken]: extras.progressToken };
  if (conn.era === "legacy") {
    const meta = { ...extras.meta, ...token };
    return Object.keys(meta).length === 0 ? params : { ...params, _meta: meta };
  }
  return {
    ...params,
    _meta: {
      ...extras.meta,
      [MetaKey.protocolVersion]: conn.protocolVersion,
      [MetaKey.clientInfo]: conn.clientInfo,
      [MetaKey.clientCapabilities]: conn.capabilities,
      ...token,
      ...(extras.logLevel === undefined ? {} : { [MetaKey.logLevel]: extras.logLevel }),
    },
  };
}

import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import type { Reply } from "./call.ts";
import type { Catalog } from "./catalog.ts";
import type { Era } from "../../shared/protocol/versions.ts";
import { RawResult } from "./raw.ts";
import type { Outcome } from "./reply.ts";

const MODERN_STATUS: Readonly<Record<number, number>> = {
  [ErrorCode.ParseError]: 400,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.HeaderMismatch]: 400,
  [ErrorCode.MissingRequiredClientCapability]: 400,
  [ErrorCode.UnsupportedProtocolVersion]: 400,
};

/**
 * The one place a failure becomes a JSON-RPC error and an HTTP status. Protocol faults keep
 * their message; anything else is a bug, logged here and answered as -32603 without details.
 * Legacy clients get 200 for everything but malformed messages: to them a 404 means
 * "session expired".
 */
export function errorOutcome(error: unknown, id: JsonRpcId | undefined, era: Era): Outcome {
  let rpc: RpcError;
  if (error instanceof RpcError) {
    rpc = error;
  } else {
    console.error("Unexpected error while serving an MCP request", error);
    rpc = new RpcError(
      ErrorCode.InternalError,
      "Internal error: the server failed while handling this request.",
    );
  }
  const malformed = rpc.code === ErrorCode.ParseError || rpc.code === ErrorCode.InvalidRequest;
  const status =
    era === "legacy" ? (malformed ? 400 : 200) : (rpc.httpStatus ?? MODERN_STATUS[rpc.code] ?? 200);
  const body = {
    code: rpc.code,
    message: rpc.message,
    ...(rpc.data === undefined ? {} : { data: rpc.data }),
  };
  // Without a known id the member is left out: MCP's schema has no null ids.
  return {
    json: JSON.stringify({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), error: body }),
    status,
  };
}

/** Serializes a handler's reply in the request's era: modern results gain `resultType` and `serverInfo`. */
export function resultOutcome(reply: Reply, id: JsonRpcId, era: Era, catalog: Catalog): Outcome {
  if (reply instanceof RawResult) {
    return {
      json: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${reply.json}}`,
      status: 200,
    };
  }
  let result: Record<string, unknown>;
  if (era === "modern") {
    const meta = {
      ...(typeof reply._meta === "object" ? reply._meta : {}),
      [MetaKey.serverInfo]: catalog.serverInfo,
    };
    result = { resultType: "complete", ...reply, _meta: meta };
  } else {
    const { ttlMs: _ttl, cacheScope: _scope, resultType: _type, ...rest } = reply;

    result = rest;
  }
  return { json: JSON.stringify({ jsonrpc: "2.0", id, result }), status: 200 };
}

export function outcomeResponse({ json, status }: Outcome): Response {
  return new Response(json, { status, headers: { "Content-Type": "application/json" } });
}

import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";

/** The `_meta` key naming the upstream a hub catalog entry or result comes from. */
export const PROVENANCE = "dev.edgemcp/upstream";

/**
 * An upstream's result as the hub sends it, in either era: the hub is the server its client
 * talks to, so the upstream's serverInfo gives way (a 2026 reply adds the hub's own) and the
 * upstream is named under the provenance key instead.
 */
export function fromUpstream(result: JsonObject, upstream: string): JsonObject {
  const meta: JsonObject = isJsonObject(result._meta) ? { ...result._meta } : {};
  delete meta[MetaKey.serverInfo];
  return { ...result, _meta: { ...meta, [PROVENANCE]: { server: upstream } } };
}

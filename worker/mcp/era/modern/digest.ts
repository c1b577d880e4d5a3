import { toBase64Url } from "../../../../shared/base64.ts";
import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";

/** How deep params may nest to be digested: far past any real arguments, well inside the stack. */
const MAX_DIGEST_DEPTH = 512;

/**
 * JSON with object keys sorted at every level, so equal values serialize equally. Params nested
 * deeper than `MAX_DIGEST_DEPTH` are refused (-32602) before the walk could exhaust the stack.
 */
function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DIGEST_DEPTH)
    throw new RpcError(
      ErrorCode.InvalidParams,
      `The request's params are nested more than ${MAX_DIGEST_DEPTH} levels deep.`,
    );
  const inner = (v: unknown) => canonicalJson(v, depth + 1);
  if (Array.isArray(value)) return `[${value.map(inner).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${inner(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A short SHA-256 digest of a request's params, ignoring the envelope and the MRTR fields. */
export async function paramsDigest(params: Record<string, unknown>): Promise<string> {
  const { _meta: _envelope, inputResponses: _answers, requestState: _state, ...rest } = params;
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(rest)));
  return toBase64Url(new Uint8Array(hash).subarray(0, 16));
}

import { toBase64Url } from "../../../../shared/base64.ts";

/** JSON with object keys sorted at every level, so equal values serialize equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A short SHA-256 digest of a request's params, ignoring the envelope and the MRTR fields. */
export async function paramsDigest(params: Record<string, unknown>): Promise<string> {
  const { _meta: _envelope, inputResponses: _answers, requestState: _state, ...rest } = params;
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(rest)));
  return toBase64Url(new Uint8Array(hash).subarray(0, 16));
}

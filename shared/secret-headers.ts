// Parts of a header name that mark its value as a credential, matched case-insensitively
// anywhere in the name (Authorization, Cookie, X-Auth-Key, Ocp-Apim-Subscription-Key,
// Mcp-Session-Id). Masking a harmless `Idempotency-Key` costs little; showing an API key does not.
const SECRET_PARTS = ["auth", "token", "secret", "key", "password", "session", "cookie"];

/** Whether a header's value is a credential, to be masked when shown, copied or put in a link. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_PARTS.some((part) => lower.includes(part));
}

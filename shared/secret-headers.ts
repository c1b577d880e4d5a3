// Header names whose values are credentials; matched case-insensitively, by name or part.
const SECRET_NAMES = ["authorization", "proxy-authorization", "cookie", "set-cookie"];
const SECRET_PARTS = ["token", "secret", "api-key", "apikey", "password", "session"];

/** Whether a header's value is a credential, to be masked when shown, copied or put in a link. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.includes(lower) || SECRET_PARTS.some((part) => lower.includes(part));
}

// Header names whose values are credentials; matched case-insensitively, by name or part.
const SECRET_NAMES = ["authorization", "proxy-authorization", "cookie", "set-cookie"];
const SECRET_PARTS = ["token", "secret", "api-key", "apikey", "password", "session"];

/** Whether a header's value should be masked when shown, copied or put in a link. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.includes(lower) || SECRET_PARTS.some((part) => lower.includes(part));
}

/** A header value as shown with secrets masked: the scheme word kept, the rest hidden. */
export function maskValue(value: string): string {
  const scheme = /^(Bearer|Basic|Token|Digest)\s+/i.exec(value)?.[0] ?? "";
  return `${scheme}••••••`;
}

/** The environment variable a copied command reads a masked header from. */
export function envNameOf(header: string): string {
  return "MCP_" + header.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

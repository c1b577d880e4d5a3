/** A header value as shown with secrets masked: the scheme word kept, the rest hidden. */
export function maskValue(value: string): string {
  const scheme = /^(Bearer|Basic|Token|Digest)\s+/i.exec(value)?.[0] ?? "";
  return `${scheme}••••••`;
}

/** The environment variable a copied command reads a masked header from. */
export function envNameOf(header: string): string {
  return "MCP_" + header.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

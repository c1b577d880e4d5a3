/** The scheme word a credential starts with (`Bearer`, `Basic`, `Token`, `Digest`), if any. */
export function schemeOf(value: string): string | undefined {
  return /^(Bearer|Basic|Token|Digest)\s+/i.exec(value)?.[1];
}

/** A header value as shown with secrets masked: the scheme word kept, the rest hidden. */
export function maskValue(value: string): string {
  const scheme = schemeOf(value);
  return `${scheme === undefined ? "" : `${scheme} `}••••••`;
}

/** The environment variable a copied command reads a masked header from. */
export function envNameOf(header: string): string {
  return "MCP_" + header.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

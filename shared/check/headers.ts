/** HTTP headers as plain data (any case), so checks run on recorded exchanges anywhere. */
export type HeaderBag = Readonly<Record<string, string>>;

/** A header's value by case-insensitive name. */
export function headerOf(headers: HeaderBag, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The media type of a Content-Type value, lowercased and without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

import { envNameOf, isSecretHeader } from "./secrets.ts";

/** One HTTP request exactly as it was sent. */
export type SentRequest = {
  url: string;
  method: string;
  headers: readonly (readonly [string, string])[];
  body: string;
};

/** Whether to put secret header values in the copy, or read them from the environment. */
export type CopyOptions = { revealSecrets: boolean };

/** Quotes a word for POSIX shells: single quotes, with embedded ones closed and escaped. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * What a masked header's variable must hold: the header's whole value, its scheme word too
 * (`Bearer …`), since the command sends the variable as the value.
 */
function maskedNote(name: string, value: string): { holds: string; note: string } {
  const scheme = /^(Bearer|Basic|Token|Digest)\s+/i.exec(value)?.[1];
  return scheme
    ? { holds: `${scheme} …`, note: `the whole ${name} value, "${scheme} " included; not copied` }
    : { holds: "…", note: `${name}, not copied` };
}

/**
 * The request as a curl command: the same method, URL, headers and body bytes. Masked secrets
 * are read from environment variables (`"$MCP_AUTHORIZATION"`), named in a comment above.
 */
export function toCurl(request: SentRequest, options: CopyOptions): string {
  const lines: string[] = [];
  const masked = request.headers.filter(([name]) => !options.revealSecrets && isSecretHeader(name));
  for (const [name, value] of masked) {
    const { holds, note } = maskedNote(name, value);
    lines.push(`# export ${envNameOf(name)}='${holds}'   (${note})`);
  }
  const parts = [`curl -sS -N -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of request.headers) {
    const secret = !options.revealSecrets && isSecretHeader(name);
    parts.push(
      secret ? `-H "${name}: \${${envNameOf(name)}}"` : `-H ${shellQuote(`${name}: ${value}`)}`,
    );
  }
  if (request.body !== "") parts.push(`--data-raw ${shellQuote(request.body)}`);
  lines.push(parts.join(" \\\n  "));
  return lines.join("\n");
}

/** The request as a `fetch` call (JavaScript), secrets as constants to fill in unless revealed. */
export function toFetch(request: SentRequest, options: CopyOptions): string {
  const lines: string[] = [];
  const headerLines = request.headers.map(([name, value]) => {
    const secret = !options.revealSecrets && isSecretHeader(name);
    if (secret) {
      const { holds, note } = maskedNote(name, value);
      lines.push(`const ${envNameOf(name)} = "${holds}"; // ${note}`);
    }
    return `    ${JSON.stringify(name)}: ${secret ? envNameOf(name) : JSON.stringify(value)},`;
  });
  lines.push(
    `const response = await fetch(${JSON.stringify(request.url)}, {`,
    `  method: ${JSON.stringify(request.method)},`,
    "  headers: {",
    ...headerLines,
    "  },",
    ...(request.body === "" ? [] : [`  body: ${JSON.stringify(request.body)},`]),
    "});",
    "console.log(response.status, await response.text());",
  );
  return lines.join("\n");
}

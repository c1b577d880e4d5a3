import { curlCommand, type SentRequest, type ShowHeader } from "../../../shared/curl.ts";
import { isSecretHeader } from "../../../shared/secret-headers.ts";
import { envNameOf, schemeOf } from "./secrets.ts";

/** Whether to put secret header values in the copy, or read them from the environment. */
export type CopyOptions = { revealSecrets: boolean };

/**
 * What a masked header's variable must hold: the header's whole value, its scheme word too
 * (`Bearer …`), since the command sends the variable as the value.
 */
function maskedNote(name: string, value: string): { holds: string; note: string } {
  const scheme = schemeOf(value);
  return scheme
    ? { holds: `${scheme} …`, note: `the whole ${name} value, "${scheme} " included; not copied` }
    : { holds: "…", note: `${name}, not copied` };
}

/** The headers whose values the copy leaves out. */
function maskedHeaders(request: SentRequest, options: CopyOptions) {
  return request.headers.filter(([name]) => !options.revealSecrets && isSecretHeader(name));
}

/**
 * The request as a curl command: the same method, URL, headers and body bytes. Masked secrets
 * are read from environment variables (`"$MCP_AUTHORIZATION"`), named in a comment above.
 */
export function toCurl(request: SentRequest, options: CopyOptions): string {
  const lines = maskedHeaders(request, options).map(([name, value]) => {
    const { holds, note } = maskedNote(name, value);
    return `# export ${envNameOf(name)}='${holds}'   (${note})`;
  });
  const show: ShowHeader = (name, value) =>
    !options.revealSecrets && isSecretHeader(name)
      ? { expand: `\${${envNameOf(name)}}` }
      : { literal: value };
  lines.push(curlCommand(request, show));
  return lines.join("\n");
}

/** The request as a `fetch` call (JavaScript), secrets as constants to fill in unless revealed. */
export function toFetch(request: SentRequest, options: CopyOptions): string {
  const masked = new Set(maskedHeaders(request, options).map(([name]) => name));
  const lines: string[] = [];
  const headerLines = request.headers.map(([name, value]) => {
    if (!masked.has(name)) return `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`;
    const { holds, note } = maskedNote(name, value);
    lines.push(`const ${envNameOf(name)} = "${holds}"; // ${note}`);
    return `    ${JSON.stringify(name)}: ${envNameOf(name)},`;
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

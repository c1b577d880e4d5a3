import { headerWord, shellQuote } from "../../../shared/curl.ts";
import { isSecretHeader } from "../../../shared/secret-headers.ts";
import { envNameOf } from "./secrets.ts";

/**
 * The playground's check as a terminal command: `edgemcp check` with the connection's headers,
 * secret values read from environment variables (named like the curl export's) so they are
 * never copied.
 */
export function checkCommand(url: string, headers: Record<string, string>): string {
  const parts = ["npx edgemcp check", shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) {
    const shown = isSecretHeader(name) ? { expand: `$${envNameOf(name)}` } : { literal: value };
    parts.push("-H", headerWord(name, shown));
  }
  return parts.join(" ");
}

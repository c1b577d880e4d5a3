import { envNameOf, isSecretHeader } from "./secrets.ts";

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The playground's check as a terminal command: `edgemcp check` with the connection's headers,
 * secret values read from environment variables (named like the curl export's) so they are
 * never copied.
 */
export function checkCommand(url: string, headers: Record<string, string>): string {
  const parts = ["npx edgemcp check", quote(url)];
  for (const [name, value] of Object.entries(headers)) {
    parts.push(
      "-H",
      isSecretHeader(name) ? `"${name}: $${envNameOf(name)}"` : quote(`${name}: ${value}`),
    );
  }
  return parts.join(" ");
}

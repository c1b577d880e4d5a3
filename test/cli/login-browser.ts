import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CLI } from "./cli.ts";

/** How `edgemcp login` ended, and the page the browser saw at its loopback address. */
export type LoggedIn = { code: number | null; stdout: string; stderr: string; page: string };

/**
 * Runs `edgemcp login <url> --no-browser` and plays the person at the browser once it prints the
 * sign-in URL: `browse` does what the authorization server's pages ask and resolves with where
 * they finally redirect (the command's loopback address), which is then loaded as a browser would.
 */
export function loginWithBrowser(
  url: string,
  env: Record<string, string>,
  browse: (authorizationUrl: string) => Promise<string>,
  options: string[] = [],
): Promise<LoggedIn> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, "login", url, "--no-browser", ...options], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let page = "";
    let browsed = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /Sign in at this URL[^\n]*\n\n\s+(\S+)\n/.exec(stderr);
      if (!match?.[1] || browsed) return;
      browsed = true;
      void (async () => {
        const back = await browse(match[1] ?? "");
        page = await (await fetch(back)).text();
      })().catch(reject);
    });
    child.once("close", (code) => resolve({ code, stdout, stderr, page }));
  });
}

/** What `edgemcp login` keeps in auth.json, as far as the tests read it. */
export type Kept = Record<
  string,
  {
    issuer?: string;
    resource?: string;
    tokens?: Record<
      string,
      { access_token: string; refresh_token?: string; expires_at?: number; scope?: string }
    >;
  }
>;

export const readKept = async (config: string): Promise<Kept> =>
  JSON.parse(await readFile(join(config, "auth.json"), "utf8")) as Kept;

/** The tokens kept for a server, found through its record (its issuer and resource). */
export async function keptTokens(config: string, server: string) {
  const kept = await readKept(config);
  const { issuer, resource } = kept[`server:${server}`] ?? {};
  const tokens = kept[`issuer:${issuer}`]?.tokens?.[resource ?? ""];
  if (!tokens) throw new Error(`no tokens kept for ${server}: ${JSON.stringify(kept)}`);
  return tokens;
}

/** Changes the tokens kept for a server in place, as time or a revocation would. */
export async function changeKept(
  config: string,
  server: string,
  change: (tokens: { access_token: string; expires_at?: number }) => void,
): Promise<void> {
  const kept = await readKept(config);
  const { issuer, resource } = kept[`server:${server}`] ?? {};
  const tokens = kept[`issuer:${issuer}`]?.tokens?.[resource ?? ""];
  if (!tokens) throw new Error(`no tokens kept for ${server}`);
  change(tokens);
  await writeFile(join(config, "auth.json"), JSON.stringify(kept), { mode: 0o600 });
}

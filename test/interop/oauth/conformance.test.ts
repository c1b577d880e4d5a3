import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { inject, it, expect } from "vitest";
import * as z from "zod";
import { consentAs } from "./sign-in.ts";

const SUITE = fileURLToPath(
  new URL("../../../node_modules/conformance-next/dist/index.js", import.meta.url),
);
const CheckSchema = z.looseObject({
  id: z.string(),
  status: z.enum(["SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"]),
  errorMessage: z.string().optional(),
});

/** A loopback port nothing listens on, for the suite's callback server. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

// The suite's authorization-server scenarios against the Worker: its metadata, then the
// authorization code grant, where the suite prints the URL a person would open. The test is
// that person: it signs in on the Worker's page and follows the redirect to the suite's callback.
// (Only the next suite has them: 0.1.x has no `authorization` command.)
it(
  "passes the conformance suite's authorization server scenarios",
  { timeout: 120_000 },
  async () => {
    const issuer = inject("workerUrl");
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/callback`;
    const registered = await fetch(`${issuer}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_name: "MCP conformance suite",
        redirect_uris: [redirect],
        token_endpoint_auth_method: "none",
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const out = await mkdtemp(join(tmpdir(), "edgemcp-as-conformance-"));
    try {
      const args = [SUITE, "authorization", "--url", issuer, "--client-id", clientId];
      args.push("--resource", `${issuer}/mcp/notes`, "-p", String(port), "-o", out);
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      let driven: Promise<void> | undefined;
      const onData = (chunk: Buffer) => {
        output += stripVTControlCharacters(chunk.toString());
        const url = /^(http\S+\/authorize\?\S+)$/m.exec(output)?.[1];
        if (url && !driven)
          driven = consentAs(new URL(url)).then(async ({ callback }) => {
            await fetch(`${redirect}?${callback.toString()}`);
          });
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      await driven;
      const checks = [];
      for (const dir of await readdir(out)) {
        const text = await readFile(join(out, dir, "checks.json"), "utf8");
        checks.push(...z.array(CheckSchema).parse(JSON.parse(text)));
      }
      const failures = checks
        .filter((check) => check.status !== "SUCCESS")
        .map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? ""}`);
      expect(failures, output).toEqual([]);
      expect(checks.map((check) => check.id).sort()).toEqual([
        "authorization-code-grant",
        "authorization-server-metadata",
        "authorization-server-metadata-cimd",
      ]);
      expect(code).toBe(0);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  },
);

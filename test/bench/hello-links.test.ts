import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * A bundle of `entry` (tree-shaken, as wrangler bundles it): its text, and the files that put
 * code into it.
 */
async function bundle(entry: string): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [`${ROOT}${entry}`],
    bundle: true,
    write: false,
    outdir: "out",
    metafile: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker"],
    logLevel: "silent",
    external: ["cloudflare:workers", "node:*"],
    alias: { "edgemcp/server": `${ROOT}worker/mcp/index.ts` },
  });
  const inputs = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
  return { text: result.outputFiles.map((file) => file.text).join("\n"), inputs };
}

const scoped = (path: string) =>
  /worker\/auth\/(step-up|jwt)\.ts$/.test(path) ||
  path.includes("worker/oauth/") ||
  path.includes("workers-oauth-provider");

describe("what a Worker without sign-in links", () => {
  it("the bench's hello Worker links no sign-in, JWT or step-up code", async () => {
    const { text, inputs } = await bundle("test/bench/workers/hello-edgemcp/index.ts");
    expect(inputs.some((path) => path.endsWith("worker/auth/policy.ts"))).toBe(true);
    expect(inputs.filter(scoped)).toEqual([]);
    // Policy rules are linked; reading the scopes they name, for step-up challenges, is not.
    expect(text).toContain("scope:<scope>");
    expect(text).not.toContain('"scope:"');
  });

  it("a Worker with sign-in links the step-up", async () => {
    const { inputs } = await bundle("worker/oauth/index.ts");
    expect(inputs.some((path) => path.endsWith("worker/auth/step-up.ts"))).toBe(true);
  });
});

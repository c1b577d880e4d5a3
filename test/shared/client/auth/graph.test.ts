import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The files and packages an entry point links, as esbuild bundles it for the browser or a Worker. */
async function linked(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [`${ROOT}${entry}`],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "silent",
    external: ["cloudflare:workers", "node:*"],
    alias: { "edgemcp/server": `${ROOT}worker/mcp/index.ts` },
  });
  return Object.keys(result.metafile.inputs);
}

const signIn = (path: string) =>
  path.includes("shared/client/auth/") || path.includes("oauth4webapi");

describe("what links the client's sign-in", () => {
  it.each([
    "worker/mcp/index.ts",
    "worker/mcp/hono.ts",
    "shared/client/index.ts",
    // The bench's smallest Worker, as its bundle-size figures measure it.
    "test/bench/workers/hello-edgemcp/index.ts",
  ])("%s links none of it", async (entry) => {
    const inputs = await linked(entry);
    expect(inputs.length).toBeGreaterThan(10);
    expect(inputs.filter(signIn)).toEqual([]);
  });

  it("its own entry point links it with oauth4webapi", async () => {
    const inputs = await linked("shared/client/auth/index.ts");
    expect(inputs.some((path) => path.includes("oauth4webapi"))).toBe(true);
  });
});

import { build, type BuildOptions } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * A bundle of `entry` (tree-shaken, as wrangler bundles it): its text, and the files that put
 * code into it.
 */
async function bundle(entry: string): Promise<{ text: string; inputs: string[] }> {
  return bundled({ entryPoints: [`${ROOT}${entry}`] });
}

/** The same for a Worker written here, whose imports resolve from the repository's root. */
async function bundleSource(contents: string): Promise<{ text: string; inputs: string[] }> {
  return bundled({ stdin: { contents, resolveDir: ROOT, sourcefile: "worker.ts", loader: "ts" } });
}

async function bundled(
  entry: Pick<BuildOptions, "entryPoints" | "stdin">,
): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    ...entry,
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

/** A one-tool Worker like the hello Worker, with `extra` added to its definition. */
const oneTool = (imports: string, extra: string) => `
import { defineServer, mcpHandler, tool, ${imports} } from "edgemcp/server";
export default mcpHandler(
  defineServer({
    name: "opts-in",
    version: "1",
    tools: [tool({ name: "greet", run: () => "hi" })],
    ${extra}
  }),
);
`;

/** The modules of input rounds, and a string only their code has. */
const INPUT_ROUNDS = {
  modules: [
    "worker/mcp/era/input-rounds.ts",
    "worker/mcp/era/modern/mrtr.ts",
    "worker/mcp/era/modern/digest.ts",
    "worker/mcp/era/legacy/input.ts",
    "worker/mcp/input/answers.ts",
    "worker/mcp/input/requests.ts",
  ],
  marker: "requestState integrity check failed",
};

describe("what a Worker without input rounds links", () => {
  const linked = (inputs: string[]) =>
    INPUT_ROUNDS.modules.filter((module) => inputs.some((path) => path.endsWith(module)));

  it("the bench's hello Worker links no input rounds (MRTR, 2025 input requests)", async () => {
    const { text, inputs } = await bundle("test/bench/workers/hello-edgemcp/index.ts");
    expect(linked(inputs)).toEqual([]);
    expect(text).not.toContain(INPUT_ROUNDS.marker);
  });

  it("a Worker given inputRounds links them", async () => {
    const { text, inputs } = await bundleSource(oneTool("inputRounds", "input: inputRounds,"));
    expect(linked(inputs)).toEqual(INPUT_ROUNDS.modules);
    expect(text).toContain(INPUT_ROUNDS.marker);
  });
});

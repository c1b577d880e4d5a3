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

const HELLO = "test/bench/workers/hello-edgemcp/index.ts";
const links = (inputs: string[], file: string) => inputs.some((path) => path.endsWith(file));

describe("what a Worker without sign-in links", () => {
  it("the bench's hello Worker links no sign-in, JWT or step-up code", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(inputs.filter(scoped)).toEqual([]);
    expect(text).not.toContain('"scope:"');
  });

  it("a Worker with sign-in links the step-up", async () => {
    const { inputs } = await bundle("worker/oauth/index.ts");
    expect(inputs.some((path) => path.endsWith("worker/auth/step-up.ts"))).toBe(true);
  });
});

/**
 * A one-tool Worker like the hello Worker, with `extra` added to its definition and `options`
 * given to its handler.
 */
const oneTool = (imports: string, extra: string, options = "{}") => `
import { defineServer, mcpHandler, tool, ${imports} } from "edgemcp/server";
export default mcpHandler(
  defineServer({
    name: "opts-in",
    version: "1",
    tools: [tool({ name: "greet", run: () => "hi" })],
    ${extra}
  }),
  ${options},
);
`;

/**
 * The modules of tasks (with the record of mounted servers their Durable Objects read) and
 * listen streams, and a string only their code has.
 */
const TASKS = {
  modules: ["worker/mcp/methods/tasks.ts", "worker/mcp/server/registry.ts"],
  marker: "The task store is not available to this request.",
};
const LISTEN = {
  modules: ["worker/mcp/methods/listen.ts", "worker/mcp/listen/filter.ts"],
  marker: "subscriptions/listen needs params.notifications",
};

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

/** The modules of sealing (keyring, sealer, handles), and a string only the sealer has. */
const SEALING = {
  modules: [
    "worker/state/sealer.ts",
    "worker/state/keyring.ts",
    "worker/state/handles.ts",
    "worker/mcp/catalog/sealing.ts",
  ],
  marker: "altered, cut short, or made by another deployment",
};

/** Paging with sealed cursors (lists longer than one page), and a string only it has. */
const PAGING = {
  modules: ["worker/mcp/catalog/pages.ts"],
  marker: "it points past the end of the list",
};

describe("what a Worker without input rounds links", () => {
  const linked = (inputs: string[]) =>
    INPUT_ROUNDS.modules.filter((module) => inputs.some((path) => path.endsWith(module)));

  it("the bench's hello Worker links no input rounds (MRTR, 2025 input requests)", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(linked(inputs)).toEqual([]);
    expect(text).not.toContain(INPUT_ROUNDS.marker);
  });

  it("a Worker given inputRounds links them", async () => {
    const { text, inputs } = await bundleSource(oneTool("inputRounds", "input: inputRounds,"));
    expect(linked(inputs)).toEqual(INPUT_ROUNDS.modules);
    expect(text).toContain(INPUT_ROUNDS.marker);
  });

  it("a Worker given inputRounds links sealing too (requestState is sealed)", async () => {
    const { text, inputs } = await bundleSource(oneTool("inputRounds", "input: inputRounds,"));
    expect(SEALING.modules.filter((module) => links(inputs, module))).toEqual(SEALING.modules);
    expect(text).toContain(SEALING.marker);
  });
});

describe.each([
  ["tasks", TASKS, oneTool("storedTasks", "tasks: storedTasks,")],
  ["listen streams", LISTEN, oneTool("listenStreams", "listen: listenStreams,")],
  ["sealing", SEALING, oneTool("sealing", "sealing,")],
  ["paging (its cursors are sealed)", PAGING, oneTool("sealing", "sealing,")],
])("what a Worker without %s links", (_name, feature, optedIn) => {
  const linked = (inputs: string[]) =>
    feature.modules.filter((module) => inputs.some((path) => path.endsWith(module)));

  it("the bench's hello Worker links none of it", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(linked(inputs)).toEqual([]);
    expect(text).not.toContain(feature.marker);
  });

  it("a Worker that names it in its definition links it", async () => {
    const { text, inputs } = await bundleSource(optedIn);
    expect(linked(inputs)).toEqual(feature.modules);
    expect(text).toContain(feature.marker);
  });
});

/** The methods of prompts, resources and completion, and a string only their code has. */
const PROMPTS = {
  modules: [
    "worker/mcp/methods/prompts.ts",
    "worker/mcp/catalog/prompt-list.ts",
    "worker/mcp/results/prompt.ts",
  ],
  marker: "Call prompts/list to see the prompts this server offers.",
};
const RESOURCES = {
  modules: ["worker/mcp/methods/resources.ts", "worker/mcp/results/resource.ts"],
  marker: "Call resources/list or resources/templates/list",
};
const COMPLETION = {
  modules: ["worker/mcp/methods/completion.ts"],
  marker: "in completion ref.",
};

describe.each([
  ["prompts", PROMPTS, oneTool("prompt", 'prompts: [prompt({ name: "p", get: () => "p" })],')],
  [
    "resources",
    RESOURCES,
    oneTool("resource", 'resources: [resource({ uri: "a://b", name: "b", read: () => "b" })],'),
  ],
  [
    "completion",
    COMPLETION,
    oneTool(
      "prompt",
      'prompts: [prompt({ name: "p", get: () => "p", complete: { x: () => [] } })],',
    ),
  ],
])("what a Worker without %s links", (_name, methods, optedIn) => {
  const linked = (inputs: string[]) =>
    methods.modules.filter((module) => inputs.some((path) => path.endsWith(module)));

  it("the bench's hello Worker links none of their methods", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(linked(inputs)).toEqual([]);
    expect(text).not.toContain(methods.marker);
  });

  it("a Worker whose definition has them links their methods", async () => {
    const { text, inputs } = await bundleSource(optedIn);
    expect(linked(inputs)).toEqual(methods.modules);
    expect(text).toContain(methods.marker);
  });
});

describe("the checks of resources, templates and prompts come with their builders", () => {
  const MODULE = "worker/mcp/catalog/entries.ts";
  // Only those checks say what a resource URI is.
  const MARKER = "a resource URI is absolute, with a scheme";

  it("the hello Worker links neither their module nor their messages", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(links(inputs, MODULE)).toBe(false);
    expect(text).not.toContain(MARKER);
  });

  it("a Worker with a resource links both", async () => {
    const { text, inputs } = await bundleSource(
      oneTool("resource", 'resources: [resource({ uri: "a://b", name: "b", read: () => "b" })],'),
    );
    expect(links(inputs, MODULE)).toBe(true);
    expect(text).toContain(MARKER);
  });
});

describe("the policy engine is linked only by a Worker that hands it over", () => {
  // Only the engine checks who a rule is for: its message is its marker.
  const MARKER = '"who" must be';

  it("the hello Worker links neither the engine nor its rules' message", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(links(inputs, "worker/auth/policy.ts")).toBe(false);
    expect(text).not.toContain(MARKER);
    // The gate itself, with the refusal of an MCP_POLICY no engine applies, stays.
    expect(links(inputs, "worker/auth/admit.ts")).toBe(true);
    expect(text).toContain("links no policy engine");
  });

  it("a Worker with policy: accessPolicy() links both", async () => {
    const { text, inputs } = await bundleSource(
      oneTool("accessPolicy", "", "{ policy: accessPolicy() }"),
    );
    expect(links(inputs, "worker/auth/policy.ts")).toBe(true);
    expect(text).toContain(MARKER);
  });
});

// zod's JSON Schema converter: its two modules, and a message each has.
const converter = (path: string) =>
  /zod\/v4\/core\/(to-json-schema|json-schema-processors)\.js$/.test(path);
const CONVERTER_MARKERS = [
  "Non-representable type encountered",
  "cannot be represented in JSON Schema",
];

describe("what a Worker without zod's JSON Schema converter links", () => {
  it("the bench's hello Worker derives its schemas without zod's converter", async () => {
    const { text, inputs } = await bundle("test/bench/workers/hello-edgemcp/index.ts");
    expect(inputs.some((path) => path.endsWith("worker/mcp/schema/writer.ts"))).toBe(true);
    expect(inputs.filter(converter)).toEqual([]);
    for (const marker of CONVERTER_MARKERS) expect(text).not.toContain(marker);
  });

  it("a Worker that gives defineServer z.toJSONSchema links the converter", async () => {
    const { text, inputs } = await bundleSource(
      `import * as z from "zod/mini";\n${oneTool("", "toJSONSchema: z.toJSONSchema,")}`,
    );
    expect(inputs.filter(converter)).toHaveLength(2);
    for (const marker of CONVERTER_MARKERS) expect(text).toContain(marker);
  });
});

describe("how a Worker reads what a client declares about itself", () => {
  it("the bench's hello Worker reads capabilities and client info by hand, linking no zod array", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(links(inputs, "worker/mcp/era/declared.ts")).toBe(true);
    expect(text).not.toContain("ClientCapabilitiesSchema");
    expect(text).not.toContain('"$ZodArray"');
  });
});

describe("what a Worker without text blocks serialized once links", () => {
  const module = (path: string) => path.endsWith("worker/mcp/results/serialized-text.ts");
  const marker = "serializedText: ";

  it("the bench's hello Worker links no serializedText", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(inputs.filter(module)).toEqual([]);
    expect(text).not.toContain(marker);
  });

  it("a Worker whose tool returns one links it", async () => {
    const { text, inputs } = await bundle("test/bench/workers/edgemcp/index.ts");
    expect(inputs.filter(module)).toHaveLength(1);
    expect(text).toContain(marker);
  });
});

// zod's English locale, set as zod's configuration by shared/zod-locale.ts (the command loads
// it); a string only it has.
const locale = (path: string) => /zod\/v4\/locales\/en\.js$|shared\/zod-locale\.ts$/.test(path);
const LOCALE_MARKER = '"elements"';

describe("what a Worker links of zod's English locale: nothing, the lines are edgemcp's own", () => {
  it("the bench's hello Worker writes argument errors without zod's locale", async () => {
    const { text, inputs } = await bundle("test/bench/workers/hello-edgemcp/index.ts");
    expect(inputs.some((path) => path.endsWith("shared/zod-issues.ts"))).toBe(true);
    expect(inputs.filter(locale)).toEqual([]);
    expect(text).not.toContain(LOCALE_MARKER);
  });

  it("the hub, a client of its upstreams, writes a reply's problems without it too", async () => {
    const { text, inputs } = await bundle("worker/hub/index.ts");
    expect(inputs.some((path) => path.endsWith("shared/zod-issues.ts"))).toBe(true);
    expect(inputs.filter(locale)).toEqual([]);
    expect(text).not.toContain(LOCALE_MARKER);
  });
});

describe("per-caller limits and the guard on coordination are linked only through durable", () => {
  const MODULES = [
    "worker/durable/coordinate.ts",
    "worker/durable/caller-limits.ts",
    "worker/durable/guarded-ports.ts",
    "worker/durable/auth-failures.ts",
  ];
  // Messages only the limits and the guard have.
  const MARKERS = ["Too many requests from this caller", "did not answer in time"];
  const present = (inputs: string[]) => MODULES.filter((module) => links(inputs, module));

  it("the hello Worker links neither, nor their messages", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(present(inputs)).toEqual([]);
    for (const marker of MARKERS) expect(text).not.toContain(marker);
  });

  it("a Worker with durable: durableObjects({ limits }) links them", async () => {
    const source = oneTool(
      "",
      "",
      "{ durable: (env) => durableObjects({ limits: env.MCP_LIMITS }) }",
    );
    const { text, inputs } = await bundleSource(
      `import { durableObjects } from "./worker/durable/index.ts";\n${source}`,
    );
    expect(present(inputs)).toEqual(MODULES);
    for (const marker of MARKERS) expect(text).toContain(marker);
  });
});

// Content blocks a tool returns are checked by hand (shared/protocol/content-check.ts), and so
// are the params of the methods every server has (worker/mcp/methods/params.ts), so the runtime
// adds none of zod's unions, literals, number bounds or regexes to a Worker.
const UNLINKED_KINDS = [
  "$ZodDiscriminatedUnion",
  "$ZodLiteral",
  "$ZodCheckLessThan",
  "$ZodUnion",
  "$ZodCheckRegex",
];

describe("the zod kinds the hello Worker links", () => {
  it("links none of the protocol's params schemas", async () => {
    const { inputs } = await bundle(HELLO);
    expect(links(inputs, "shared/protocol/params.ts")).toBe(false);
  });

  it.each(UNLINKED_KINDS)("links no %s", async (kind) => {
    const { text } = await bundle(HELLO);
    expect(text).not.toContain(`"${kind}"`);
  });

  it("a Worker whose schema uses them links them", async () => {
    const { text } = await bundleSource(`
import * as z from "zod/mini";
import { defineServer, mcpHandler, tool } from "edgemcp/server";
export default mcpHandler(defineServer({ name: "k", version: "1", tools: [tool({
  name: "k",
  input: z.object({
    kind: z.discriminatedUnion("t", [z.object({ t: z.literal("a"), n: z.number().check(z.maximum(1)) })]),
    either: z.union([z.string().check(z.regex(/^a/)), z.boolean()]),
  }),
  run: () => "ok",
})] }));`);
    for (const kind of UNLINKED_KINDS) expect(text).toContain(`"${kind}"`);
  });
});

describe("the hub's direct calls into a server's method table are linked only by the hub", () => {
  const MODULES = ["worker/mcp/dispatch.ts", "worker/mcp/call/direct.ts"];
  // A refusal only the direct path has.
  const MARKER = "answers with a stream: send it by HTTP.";
  const present = (inputs: string[]) => MODULES.filter((module) => links(inputs, module));

  it("the hello Worker links neither, nor the direct path's message", async () => {
    const { text, inputs } = await bundle(HELLO);
    expect(present(inputs)).toEqual([]);
    expect(text).not.toContain(MARKER);
  });

  it("the hub links them", async () => {
    const { text, inputs } = await bundle("worker/hub/index.ts");
    expect(present(inputs)).toEqual(MODULES);
    expect(text).toContain(MARKER);
  });
});

import * as z from "zod";
import { McpError } from "../../../shared/client/index.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import type { UpstreamConfig } from "../../../worker/hub/upstreams.ts";
import {
  defineServer,
  elicit,
  ErrorCode,
  RpcError,
  ToolError,
  prompt,
  resource,
  tool,
  type McpAppOptions,
  type Served,
  inputRounds,
} from "../../../worker/mcp/index.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

/** Tools both hub fixtures serve: a sum with an output schema, progress, and an input request. */
export const addTool = tool({
  name: "add",
  title: "Add numbers",
  description: "Adds",
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  run: ({ a, b }) => ({ sum: a + b }),
});

export const countTool = tool({
  name: "count",
  description: "Counts with progress",
  input: z.object({ to: z.number().int() }),
  run: async ({ to }, ctx) => {
    for (let i = 1; i <= to; i++) ctx.progress(i, to);
    return `counted ${to}`;
  },
});

export const askTool = tool({
  name: "ask",
  description: "Asks a name",
  run: async (_a, ctx) => {
    const { who } = await ctx.input({
      who: elicit({ message: "Name?", schema: z.object({ name: z.string() }) }),
    });
    return who.action === "accept" ? `hi ${who.content.name}` : "nobody";
  },
});

export const alpha = defineServer({
  name: "alpha",
  version: "1",
  input: inputRounds,
  cache: { ttlMs: 5_000, cacheScope: "public" },
  tools: [
    addTool,
    countTool,
    askTool,
    tool({
      name: "b__c",
      description: "Collides with upstream alpha__b's tool c",
      run: () => "alpha",
    }),
  ],
  resources: [
    resource({ uri: "alpha://readme", name: "readme", read: () => "alpha readme" }),
    resource({ uri: "shared://x", name: "x", read: () => "alpha x" }),
  ],
  prompts: [
    prompt({
      name: "greet",
      description: "Greets",
      icons: [{ src: "https://example.com/greet.png", mimeType: "image/png" }],
      args: z.object({ who: z.string() }),
      complete: { who: (v) => ["Ann", "Bob"].filter((n) => n.startsWith(v)) },
      get: ({ who }) => `Hello ${who}`,
    }),
  ],
});

export const beta = defineServer({
  name: "beta",
  version: "1",
  cache: { ttlMs: 2_000, cacheScope: "private" },
  tools: [tool({ name: "c", description: "Becomes alpha__b__c too", run: () => "beta" })],
  resources: [resource({ uri: "shared://x", name: "x", read: () => "beta x" })],
});

export type Sent = { id: number | string; method: string };

/**
 * `alpha` served in this isolate as upstream `name`, except for the requests `intercept` answers
 * itself (it sees each one first, and returns undefined to let alpha answer).
 */
export const alphaUnless = (
  env: Cloudflare.Env,
  name: string,
  intercept: (sent: Sent, request: Request) => Promise<Response | undefined> | Response | undefined,
): UpstreamConfig => ({
  name,
  app: {
    fetch: async (r, _e, c) =>
      (await intercept(await r.clone().json<Sent>(), r)) ?? mcpApp(alpha).fetch(r, env, c),
  },
});

/** A hub in front of one upstream, "stuck", that never answers `method`; calls give up at 150 ms. */
export const stuckHub = (name: string, method = "tools/call") =>
  serve(
    hubServer({
      name,
      callTimeoutMs: 150,
      // Lists fine, then never answers `method`.
      upstreams: (env) => [
        alphaUnless(env, "stuck", (sent) =>
          sent.method === method ? new Promise<Response>(() => {}) : undefined,
        ),
      ],
    }),
  );

/**
 * An upstream served in this isolate by `mcpApp(server, options)`, as a Worker mounts one: the
 * hub reaches it through its in-process entry (with the hub's bindings), not over fetch.
 */
export const inProcess = (
  name: string,
  server: Served,
  options?: McpAppOptions,
): UpstreamConfig => ({ name, app: mcpApp(server, options) });

export const hub = serve(
  hubServer({
    name: "test-hub",
    listTimeoutMs: 300,
    callTimeoutMs: 300,
    upstreams: () => [
      inProcess("alpha", alpha),
      inProcess("alpha__b", beta),
      { name: "down", app: { fetch: () => new Response("no", { status: 503 }) } },
      { name: "silent", app: { fetch: () => new Promise<Response>(() => {}) } },
    ],
  }),
);

export const send = (
  method: string,
  params: Record<string, unknown> = {},
  options: Parameters<typeof mcpRequest>[2] = {},
) => hub.send(mcpRequest(method, params, options), method);
export const names = (items: { name: string }[]) => items.map((i) => i.name);

/**
 * The requests a server of this Worker is asked the same way through each way in (a client
 * over fetch, the in-process entry, the direct entry): results, an input_required round,
 * argument, tool and protocol errors, a list page.
 */
export const SAME_ANSWER_CASES: [string, JsonObject][] = [
  ["tools/call", { name: "add", arguments: { a: 2, b: 3 } }],
  ["tools/call", { name: "add", arguments: { a: "x" } }],
  ["tools/call", { name: "fail", arguments: {} }],
  ["tools/call", { name: "strict", arguments: {} }],
  ["tools/call", { name: "ask", arguments: {} }],
  ["tools/call", { name: "nope", arguments: {} }],
  ["tools/list", {}],
  ["resources/read", { uri: "nowhere://x" }],
  ["no/such/method", {}],
];

/** A raw result (or the error it failed with, as its fields) without what is sealed anew. */
export async function outcome(work: Promise<JsonObject>): Promise<unknown> {
  try {
    const result = await work;
    return JSON.parse(JSON.stringify(result), (key, value: unknown) =>
      (key === "requestState" || key === "nextCursor") && typeof value === "string"
        ? "<sealed>"
        : value,
    );
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    const { kind, code, status, message, data } = error;
    return { kind, code, status, message, data };
  }
}

/** The tools SAME_ANSWER_CASES ask for, a server of each way-in test serves them first. */
export const SAME_ANSWER_TOOLS = [
  addTool,
  countTool,
  askTool,
  tool({
    name: "fail",
    run: () => {
      throw new ToolError("the tool failed");
    },
  }),
  tool({
    name: "strict",
    run: () => {
      throw new RpcError(ErrorCode.InvalidParams, "strict refuses these params");
    },
  }),
  tool({ name: "whoami", run: (_a, ctx) => ctx.caller?.subject ?? "anonymous" }),
  tool({ name: "secret", run: () => "the secret" }),
];

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../worker/durable/index.ts";
import { ClientPool } from "../../worker/hub/client-pool.ts";
import { hubServer } from "../../worker/hub/hub-server.ts";
import type { UpstreamConfig } from "../../worker/hub/upstreams.ts";
import {
  bearerTokens,
  defineServer,
  elicit,
  prompt,
  resource,
  tool,
} from "../../worker/mcp/index.ts";
import type { McpAppOptions } from "../../worker/mcp/index.ts";
import { mcpApp } from "../../worker/mcp/hono.ts";
import type { Served } from "../../worker/mcp/index.ts";
import { decodeSse } from "../../shared/sse.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";
import { legacyRequest, mcpRequest } from "../support/mcp-request.ts";
import { readReply, type Message } from "../support/reply.ts";
import { serve } from "./custom-server.ts";
import { messages } from "./stream.ts";

const alpha = defineServer({
  name: "alpha",
  version: "1",
  cache: { ttlMs: 5_000, cacheScope: "public" },
  tools: [
    tool({
      name: "add",
      title: "Add numbers",
      description: "Adds",
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.object({ sum: z.number() }),
      run: ({ a, b }) => ({ sum: a + b }),
    }),
    tool({
      name: "count",
      description: "Counts with progress",
      input: z.object({ to: z.number().int() }),
      run: async ({ to }, ctx) => {
        for (let i = 1; i <= to; i++) ctx.progress(i, to);
        return `counted ${to}`;
      },
    }),
    tool({
      name: "ask",
      description: "Asks a name",
      run: async (_a, ctx) => {
        const { who } = await ctx.input({
          who: elicit({ message: "Name?", schema: z.object({ name: z.string() }) }),
        });
        return who.action === "accept" ? `hi ${who.content.name}` : "nobody";
      },
    }),
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

const beta = defineServer({
  name: "beta",
  version: "1",
  cache: { ttlMs: 2_000, cacheScope: "private" },
  tools: [tool({ name: "c", description: "Becomes alpha__b__c too", run: () => "beta" })],
  resources: [resource({ uri: "shared://x", name: "x", read: () => "beta x" })],
});

type Sent = { id: number | string; method: string };

/**
 * `alpha` served in this isolate as upstream `name`, except for the requests `intercept` answers
 * itself (it sees each one first, and returns undefined to let alpha answer).
 */
const alphaUnless = (
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
const stuckHub = (name: string, method = "tools/call") =>
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

/** An upstream served in this isolate by `mcpApp(server, options)`, with the hub's bindings. */
const inProcess = (
  env: Cloudflare.Env,
  name: string,
  server: Served,
  options?: McpAppOptions,
): UpstreamConfig => ({
  name,
  app: { fetch: (r, _e, c) => mcpApp(server, options).fetch(r, env, c) },
});

const hub = serve(
  hubServer({
    name: "test-hub",
    listTimeoutMs: 300,
    callTimeoutMs: 300,
    upstreams: (env) => [
      inProcess(env, "alpha", alpha),
      inProcess(env, "alpha__b", beta),
      { name: "down", app: { fetch: () => new Response("no", { status: 503 }) } },
      { name: "silent", app: { fetch: () => new Promise<Response>(() => {}) } },
    ],
  }),
);

const send = (
  method: string,
  params: Record<string, unknown> = {},
  options: Parameters<typeof mcpRequest>[2] = {},
) => hub.send(mcpRequest(method, params, options), method);
const names = (items: { name: string }[]) => items.map((i) => i.name);

describe("the hub's merged catalog", () => {
  it("lists every upstream's tools under <server>__<name>, in upstream order, with provenance", async () => {
    const { final } = await send("tools/list");
    expect(names(final?.result.tools)).toEqual(["alpha__add", "alpha__count", "alpha__ask"]);
    expect(final?.result.tools[0]._meta["dev.edgemcp/upstream"]).toEqual({
      server: "alpha",
      name: "add",
    });
    expect(final?.result.tools[0].outputSchema).toMatchObject({ type: "object" });
  });

  it("leaves out names and URIs two upstreams claim, and says so", async () => {
    const tools = await send("tools/list");
    expect(names(tools.final?.result.tools)).not.toContain("alpha__b__c");
    const resources = await send("resources/list");
    expect(resources.final?.result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      "alpha://readme",
    ]);
    const discover = await send("server/discover");
    expect(discover.final?.result.instructions).toMatch(
      /two servers claim them: alpha__b__c, shared:\/\/x/,
    );
  });

  it("drops upstreams that fail or are slow, naming them and why", async () => {
    const { final } = await send("server/discover");
    expect(final?.result.instructions).toMatch(/down \(unavailable: [^)]*503[^)]*\)/);
    expect(final?.result.instructions).toMatch(/silent \(unavailable: [^)]*\)/);
  });

  it("keeps what upstreams say about their tools and prompts", async () => {
    const tools = (await send("tools/list")).final?.result.tools;
    expect(tools[0]).toMatchObject({
      name: "alpha__add",
      title: "Add numbers",
      description: "Adds",
    });
    const prompts = (await send("prompts/list")).final?.result.prompts;
    expect(prompts).toEqual([
      {
        name: "alpha__greet",
        description: "Greets",
        arguments: [{ name: "who", required: true }],
        icons: [{ src: "https://example.com/greet.png", mimeType: "image/png" }],
        _meta: { "dev.edgemcp/upstream": { server: "alpha", name: "greet" } },
      },
    ]);
  });

  it("leaves out an upstream template that does not parse, and lists everything else", async () => {
    const broken = serve(
      hubServer({
        name: "broken-template-hub",
        upstreams: (env) => [
          alphaUnless(env, "alpha", (sent) => {
            if (sent.method !== "resources/templates/list") return undefined;
            const resourceTemplates = [
              { uriTemplate: "broken://{x", name: "broken" },
              { uriTemplate: "files://{path}", name: "file" },
            ];
            return Response.json({ jsonrpc: "2.0", id: sent.id, result: { resourceTemplates } });
          }),
        ],
      }),
    );
    const templates = await broken.send(
      mcpRequest("resources/templates/list"),
      "resources/templates/list",
    );
    expect(
      templates.final?.result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate),
    ).toEqual(["files://{path}"]);
    const tools = await broken.send(mcpRequest("tools/list"), "tools/list");
    expect(names(tools.final?.result.tools)).toContain("alpha__add");
  });

  it("merges cache hints: the smallest ttlMs, private when any is", async () => {
    const { final } = await send("tools/list");
    expect(final?.result).toMatchObject({ ttlMs: 2_000, cacheScope: "private" });
  });
});

describe("forwarding through the hub", () => {
  it("calls the owning upstream with the original name and returns its result", async () => {
    const { final } = await send("tools/call", { name: "alpha__add", arguments: { a: 2, b: 3 } });
    expect(final?.result).toMatchObject({
      structuredContent: { sum: 5 },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "test-hub" } },
    });
  });

  it("passes the upstream's protocol errors through, naming the tool as the client knows it", async () => {
    const { final } = await send("tools/call", { name: "alpha__add", arguments: { a: "x", b: 3 } });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for tool "alpha__add": .*arguments\.a/),
    });
  });

  it("streams the upstream's progress", async () => {
    const reply = await send(
      "tools/call",
      { name: "alpha__count", arguments: { to: 3 } },
      { meta: { progressToken: "h" } },
    );
    expect(
      reply.messages
        .filter((m) => m.method === "notifications/progress")
        .map((m) => [m.params.progressToken, m.params.progress]),
    ).toEqual([
      ["h", 1],
      ["h", 2],
      ["h", 3],
    ]);
  });

  it("relays input the upstream asks for under namespaced keys, wrapping its requestState", async () => {
    const caps = { capabilities: { elicitation: {} } };
    const first = await send("tools/call", { name: "alpha__ask", arguments: {} }, caps);
    expect(Object.keys(first.final?.result.inputRequests)).toEqual(["alpha__who"]);
    const done = await send(
      "tools/call",
      {
        name: "alpha__ask",
        arguments: {},
        requestState: first.final?.result.requestState,
        inputResponses: { alpha__who: { action: "accept", content: { name: "Ann" } } },
      },
      caps,
    );
    expect(done.final?.result.content[0].text).toBe("hi Ann");
  });

  it("refuses a tampered hub requestState", async () => {
    const caps = { capabilities: { elicitation: {} } };
    const first = await send("tools/call", { name: "alpha__ask", arguments: {} }, caps);
    expect(first.final?.result.resultType).toBe("input_required");
    const { final } = await send(
      "tools/call",
      { name: "alpha__ask", arguments: {}, requestState: `${first.final?.result.requestState}x` },
      caps,
    );
    expect(final?.error.code).toBe(-32602);
    expect(final?.error.message).toMatch(/requestState handle is not valid/);
  });

  it("refuses pass-through input to a client that cannot answer it", async () => {
    const { final } = await send(
      "tools/call",
      { name: "alpha__ask", arguments: {} },
      { capabilities: {} },
    );
    expect(final?.error).toMatchObject({
      code: -32021,
      message: expect.stringMatching(
        /needs to send elicitation\/create, which the client did not declare/,
      ),
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it("refuses a missing required prompt argument with -32602", async () => {
    const { final } = await send("prompts/get", { name: "alpha__greet", arguments: {} });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: 'Invalid arguments for prompt "alpha__greet": missing required argument "who"',
    });
  });

  it("reads resources at their own URIs, and gets and completes prompts", async () => {
    expect(
      (await send("resources/read", { uri: "alpha://readme" })).final?.result.contents[0].text,
    ).toBe("alpha readme");
    expect(
      (await send("prompts/get", { name: "alpha__greet", arguments: { who: "Ann" } })).final?.result
        .messages[0].content.text,
    ).toBe("Hello Ann");
    const completion = await send("completion/complete", {
      ref: { type: "ref/prompt", name: "alpha__greet" },
      argument: { name: "who", value: "B" },
    });
    expect(completion.final?.result.completion.values).toEqual(["Bob"]);
  });

  it("answers an unknown prefixed name with -32602", async () => {
    expect((await send("tools/call", { name: "nobody__x", arguments: {} })).final?.error.code).toBe(
      -32602,
    );
  });

  it("gives a call a clear error when the upstream stops answering", async () => {
    const slow = stuckHub("slow-hub");

    const started = Date.now();
    const { final } = await slow.send(
      mcpRequest("tools/call", { name: "stuck__add", arguments: { a: 1, b: 2 } }),
      "tools/call",
    );
    expect(final?.result).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringMatching(/Upstream "stuck" is unavailable: no answer within/) },
      ],
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("names the upstream that stops answering outside a tool call, with -32603", async () => {
    const slow = stuckHub("slow-read-hub", "resources/read");
    const { final } = await slow.send(
      mcpRequest("resources/read", { uri: "alpha://readme" }),
      "resources/read",
    );
    expect(final?.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Upstream "stuck" is unavailable: no answer within/),
      data: { upstream: "stuck" },
    });
  });

  it("gives up on a completion the upstream never answers", async () => {
    const slow = stuckHub("slow-complete-hub", "completion/complete");
    const started = Date.now();
    const { final } = await slow.send(
      mcpRequest("completion/complete", {
        ref: { type: "ref/prompt", name: "stuck__greet" },
        argument: { name: "who", value: "A" },
      }),
      "completion/complete",
    );
    expect(final?.error?.message).toMatch(/^Upstream "stuck" is unavailable: no answer within/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on a task request the upstream never answers", async () => {
    const slow = stuckHub("slow-task-hub", "tasks/get");
    const started = Date.now();
    const taskId = "stuck__abc";
    const { final } = await slow.send(
      mcpRequest(
        "tasks/get",
        { taskId },
        {
          capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
          headers: { "Mcp-Name": taskId },
        },
      ),
      "tasks/get",
    );
    expect(final?.error?.message).toMatch(/^Upstream "stuck" is unavailable: no answer within/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on an upstream that asks a 2025 client for input more than 8 times", async () => {
    const pester = defineServer({
      name: "pester",
      version: "1",
      tools: [
        tool({
          name: "quiz",
          description: "Asks nine questions, one at a time",
          run: async (_a, ctx) => {
            for (let i = 1; i <= 9; i++)
              await ctx.input({
                [`q${i}`]: elicit({ message: `Question ${i}?`, schema: z.object({}) }),
              });
            return "all answered";
          },
        }),
      ],
    });
    const pestered = serve(
      hubServer({
        name: "pester-hub",
        upstreams: (env) => [inProcess(env, "p", pester)],
      }),
      { durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS }) },
    );
    const response = await pestered.fetch(
      legacyRequest("tools/call", { name: "p__quiz", arguments: {} }, { id: "quiz" }),
    );
    let asked = 0;
    let final: Message | undefined;
    for await (const event of decodeSse(response.body ?? new ReadableStream())) {
      const message: Message = JSON.parse(event.data);
      if (message.method === "elicitation/create") {
        asked++;
        const answer = {
          jsonrpc: "2.0",
          id: message.id,
          result: { action: "accept", content: {} },
        };
        await pestered.fetch(
          new Request("http://localhost/mcp/hub", {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              "MCP-Protocol-Version": "2025-11-25",
            },
            body: JSON.stringify(answer),
          }),
        );
      } else if (message.id === "quiz") final = message;
    }
    expect(asked).toBe(8);
    expect(final?.error).toMatchObject({
      code: -32603,
      message: 'Upstream "p" asked for input more than 8 times.',
    });
  });
});

describe("the hub's idle timeout", () => {
  it("rests while the hub's own 2025 client takes its time to answer", async () => {
    const patient = serve(
      hubServer({
        name: "patient-hub",
        callTimeoutMs: 150,
        upstreams: (env) => [inProcess(env, "alpha", alpha)],
      }),
      { durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS }) },
    );
    const response = await patient.fetch(
      legacyRequest("tools/call", { name: "alpha__ask", arguments: {} }, { id: "slow-answer" }),
    );
    let final: Message | undefined;
    for await (const event of decodeSse(response.body ?? new ReadableStream())) {
      const message: Message = JSON.parse(event.data);
      if (message.method === "elicitation/create") {
        // Longer than the upstream may stay silent: the wait is the client's, not the upstream's.
        await new Promise((resolve) => setTimeout(resolve, 400));
        await patient.fetch(
          new Request("http://localhost/mcp/hub", {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              "MCP-Protocol-Version": "2025-11-25",
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: { action: "accept", content: { name: "Ann" } },
            }),
          }),
        );
      } else if (message.id === "slow-answer") final = message;
    }
    expect(final?.result?.content[0].text).toBe("hi Ann");
  });

  it("counts the upstream's log messages as signs of life", async () => {
    const chatty = defineServer({
      name: "chatty",
      version: "1",
      tools: [
        tool({
          name: "work",
          description: "Logs every 50 ms for 400 ms, without progress",
          run: async (_a, ctx) => {
            for (let i = 0; i < 8; i++) {
              ctx.log("info", `step ${i}`);
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            return "done";
          },
        }),
      ],
    });
    const logged = serve(
      hubServer({
        name: "chatty-hub",
        callTimeoutMs: 150,
        upstreams: (env) => [inProcess(env, "c", chatty)],
      }),
    );
    const { final, messages } = await logged.send(
      mcpRequest(
        "tools/call",
        { name: "c__work", arguments: {} },
        { meta: { [MetaKey.logLevel]: "info" } },
      ),
      "tools/call",
    );
    expect(final?.result?.content[0].text).toBe("done");
    expect(messages.filter((m) => m.method === "notifications/message")).toHaveLength(8);
  });
});

describe("the hub's in-process upstreams", () => {
  it("forward each caller's own token, even to a client pooled for the same subject", async () => {
    const seen: (string | null)[] = [];
    const tokenHub = serve(
      hubServer({
        name: "token-hub",
        upstreams: (env) => [
          alphaUnless(env, "alpha", (sent, r) => {
            if (sent.method === "tools/call") seen.push(r.headers.get("Authorization"));
            return undefined;
          }),
        ],
      }),
      { authenticate: bearerTokens({ variable: "API_TOKENS" }) },
      { API_TOKENS: "first-token-0123456789=ann,second-token-0123456789=ann" },
    );
    for (const token of ["first-token-0123456789", "second-token-0123456789"]) {
      const request = mcpRequest(
        "tools/call",
        { name: "alpha__add", arguments: { a: 1, b: 2 } },
        { headers: { Authorization: `Bearer ${token}` } },
      );
      const { final } = await tokenHub.send(request, "tools/call");
      expect(final?.result?.structuredContent).toEqual({ sum: 3 });
    }
    expect(seen).toEqual(["Bearer first-token-0123456789", "Bearer second-token-0123456789"]);
  });

  it("give each call's background work to the request making it, not to the first one", async () => {
    const background = defineServer({
      name: "background",
      version: "1",
      tools: [
        tool({
          name: "later",
          description: "Leaves work to finish after the response",
          run: (_a, ctx) => (ctx.waitUntil(Promise.resolve()), "ok"),
        }),
      ],
    });
    const app = mcpApp(
      hubServer({
        name: "background-hub",
        upstreams: (env) => [inProcess(env, "bg", background)],
      }),
    );
    // A request's context, which counts the work handed to it once its request has ended.
    const finishedContexts = new Set<string>();
    let lateWork = 0;
    const call = async (label: string) => {
      const inner = createExecutionContext();
      const ctx = Object.assign(Object.create(inner) as ExecutionContext, {
        waitUntil: (p: Promise<unknown>) => {
          if (finishedContexts.has(label)) lateWork++;
          inner.waitUntil(p);
        },
      });
      const request = mcpRequest("tools/call", { name: "bg__later", arguments: {} });
      const reply = await readReply(
        await app.fetch(new Request(new URL("/", request.url), request), env, ctx),
        "tools/call",
      );
      await waitOnExecutionContext(inner);
      finishedContexts.add(label);
      return reply;
    };
    expect((await call("first")).final?.result.content[0].text).toBe("ok");
    expect((await call("second")).final?.result.content[0].text).toBe("ok");
    expect(lateWork).toBe(0);
  });
});

describe("the hub's client pool", () => {
  it("keeps a newer client when an evicted connect under the same key fails late", async () => {
    let connects = 0;
    let release = () => {};
    const failing = new Promise<void>((resolve) => (release = resolve));
    const upstream = alphaUnless(env, "u", async (sent) => {
      if (sent.method !== "server/discover" || ++connects !== 1) return undefined;
      await failing;
      return new Response("no", { status: 503 });
    });
    const pool = new ClientPool(new Map([["u", upstream]]), 10_000);
    const signal = new AbortController().signal;
    const principal = (subject: string) => ({ subject, capabilities: {} });
    const evicted = pool.client("u", principal("p0"), env, signal).catch((error: unknown) => error);
    // 256 other principals fill the pool, evicting p0's pending connect.
    for (let i = 1; i <= 256; i++) await pool.client("u", principal(`p${i}`), env, signal);
    const newer = await pool.client("u", principal("p0"), env, signal);
    expect(connects).toBe(258);
    release();
    expect(await evicted).toBeInstanceOf(Error);
    expect(await pool.client("u", principal("p0"), env, signal)).toBe(newer);
    expect(connects).toBe(258);
  });
});

/**
 * A 2025 server (no server/discover, an initialize handshake) whose one tool asks its client
 * for a name with an elicitation/create request on the call's stream, then returns whatever
 * answer it got back.
 */
function legacyAsker() {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  let answered: (answer: unknown) => void = () => {};
  return {
    fetch: async (request: Request): Promise<Response> => {
      const message = await request.json<{ id?: string | number; method?: string }>();
      const reply = (result: unknown) => json({ jsonrpc: "2.0", id: message.id, result });
      switch (message.method) {
        case "server/discover":
          return json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "?" } });
        case "initialize":
          return reply({
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "legacy", version: "1" },
          });
        case "tools/list":
          return reply({ tools: [{ name: "ask", inputSchema: { type: "object" } }] });
        case "tools/call": {
          const answer = new Promise((resolve) => (answered = resolve));
          const event = (data: unknown) => `event: message\ndata: ${JSON.stringify(data)}\n\n`;
          const body = new ReadableStream<Uint8Array>({
            async start(controller) {
              const encoder = new TextEncoder();
              controller.enqueue(
                encoder.encode(
                  event({
                    jsonrpc: "2.0",
                    id: "ask-1",
                    method: "elicitation/create",
                    params: {
                      message: "Name?",
                      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
                    },
                  }),
                ),
              );
              const text = `answer: ${JSON.stringify(await answer)}`;
              controller.enqueue(
                encoder.encode(
                  event({
                    jsonrpc: "2.0",
                    id: message.id,
                    result: { content: [{ type: "text", text }] },
                  }),
                ),
              );
              controller.close();
            },
          });
          return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
        }
        case undefined:
          answered(message);
          return new Response(null, { status: 202 });
        default:
          return new Response(null, { status: 202 });
      }
    },
  };
}

describe("a 2025 upstream behind the hub", () => {
  it("is told plainly that the hub cannot relay its own request for input", async () => {
    const hubbed = serve(
      hubServer({ name: "legacy-hub", upstreams: [{ name: "old", app: legacyAsker() }] }),
    );
    const { final } = await hubbed.send(
      mcpRequest(
        "tools/call",
        { name: "old__ask", arguments: {} },
        { capabilities: { elicitation: {} } },
      ),
      "tools/call",
    );
    const text: string = final?.result.content[0].text;
    expect(JSON.parse(text.replace(/^answer: /, ""))).toMatchObject({
      id: "ask-1",
      error: {
        code: -32603,
        message: expect.stringMatching(
          /^The hub cannot relay elicitation\/create from a 2025 server/,
        ),
      },
    });
  });
});

describe("listen through the hub", () => {
  it("relays an upstream's notifications on the hub's stream", async () => {
    const notifying = defineServer({
      name: "notifier",
      version: "1",
      tools: [
        tool({
          name: "touch",
          description: "Announces an update",
          run: async (_a, ctx) => (await ctx.notify.resourceUpdated("n://doc"), "ok"),
        }),
      ],
      resources: [resource({ uri: "n://doc", name: "doc", read: () => "doc" })],
    });
    const hubbed = serve(
      hubServer({
        name: "listen-hub",
        upstreams: (env) => [
          inProcess(env, "n", notifying, { durable: () => durableObjects({ bus: env.MCP_BUS }) }),
        ],
      }),
    );
    const stream = messages(
      await hubbed.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { resourceSubscriptions: ["n://doc"] } },
          { id: "hub-l" },
        ),
      ),
      "subscriptions/listen",
    );
    const ack: Message = await stream.next();
    expect(ack.params.notifications).toEqual({ resourceSubscriptions: ["n://doc"] });
    await new Promise((r) => setTimeout(r, 100));
    await hubbed.send(mcpRequest("tools/call", { name: "n__touch", arguments: {} }), "tools/call");
    expect(await stream.next()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "n://doc", _meta: { "io.modelcontextprotocol/subscriptionId": "hub-l" } },
    });
    await stream.close();
  });

  it("asks an upstream for task ids only if it advertises tasks", async () => {
    let upstreamListens = 0;
    const hubbed = serve(
      hubServer({
        name: "listen-tasks-hub",
        upstreams: (env) => [
          alphaUnless(env, "plain", (sent) => {
            if (sent.method === "subscriptions/listen") upstreamListens++;
            return undefined;
          }),
        ],
      }),
    );
    const stream = messages(
      await hubbed.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { taskIds: ["plain__x"] } },
          {
            id: "hub-t",
            capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
          },
        ),
      ),
      "subscriptions/listen",
    );
    expect((await stream.next()).params.notifications).toEqual({ taskIds: ["plain__x"] });
    await new Promise((r) => setTimeout(r, 100));
    await stream.close();
    expect(upstreamListens).toBe(0);
  });
});

describe("tasks through the hub", () => {
  const taskful = defineServer({
    name: "taskful",
    version: "1",
    tools: [
      tool({
        name: "job",
        description: "A quick task",
        task: { mode: "optional", pollIntervalMs: 50 },
        run: () => "job done",
      }),
    ],
  });
  const tasksHub = serve(
    hubServer({
      name: "tasks-hub",
      upstreams: (env) => [
        inProcess(env, "t", taskful, { durable: () => durableObjects({ tasks: env.MCP_TASKS }) }),
      ],
    }),
  );
  const withTasks = { capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } };

  it("names an upstream task t__<id> and routes tasks/get to it", async () => {
    const created = await tasksHub.send(
      mcpRequest("tools/call", { name: "t__job", arguments: {} }, withTasks),
      "tools/call",
    );
    const taskId: string = created.final?.result.taskId;
    expect(created.final?.result).toMatchObject({ resultType: "task", status: "working" });
    expect(taskId).toMatch(/^t__[0-9a-f]{64}$/);
    let task: Message["result"];
    for (let i = 0; i < 50 && task?.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 30));
      task = (
        await tasksHub.send(
          mcpRequest("tasks/get", { taskId }, { ...withTasks, headers: { "Mcp-Name": taskId } }),
          "tasks/get",
        )
      ).final?.result;
    }
    expect(task).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ text: "job done" }] },
    });
  });

  it("refuses a task id that names no upstream of the hub", async () => {
    const { final } = await tasksHub.send(
      mcpRequest(
        "tasks/get",
        { taskId: "nobody__x" },
        { ...withTasks, headers: { "Mcp-Name": "nobody__x" } },
      ),
      "tasks/get",
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: 'Unknown task "nobody__x": it names no upstream of this hub.',
      data: { taskId: "nobody__x" },
    });
  });

  it("runs the call inline for a client without the extension", async () => {
    const { final } = await tasksHub.send(
      mcpRequest("tools/call", { name: "t__job", arguments: {} }),
      "tools/call",
    );
    expect(final?.result).toMatchObject({
      resultType: "complete",
      content: [{ text: "job done" }],
    });
  });
});

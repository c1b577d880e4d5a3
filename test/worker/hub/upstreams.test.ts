import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { fixtureEnv as env } from "../fixture-env.ts";
import { describe, expect, it } from "vitest";
import { ClientPool } from "../../../worker/hub/client-pool.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { bearerTokens, defineServer, tool } from "../../../worker/mcp/index.ts";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";
import { alphaUnless, inProcess } from "./support.ts";
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
        upstreams: () => [inProcess("bg", background)],
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
  it("keeps a newer client when a caller's evicted connect under the same key fails late", async () => {
    let connects = 0;
    let release = () => {};
    const failing = new Promise<void>((resolve) => (release = resolve));
    const upstream = alphaUnless(env, "u", async (sent) => {
      if (sent.method !== "server/discover" || ++connects !== 1) return undefined;
      await failing;
      return new Response("no", { status: 503 });
    });
    const pool = new ClientPool(new Map([["u", upstream]]), 10_000, { maxPerCaller: 2 });
    const signal = new AbortController().signal;
    const principal = (n: number) => ({
      subject: "p0",
      capabilities: n ? { experimental: { [`n${n}`]: {} } } : {},
    });
    const evicted = pool.client("u", principal(0), env, signal).catch((error: unknown) => error);
    // Two other capability sets of the same caller evict its pending connect.
    for (let i = 1; i <= 2; i++) await pool.client("u", principal(i), env, signal);
    const newer = await pool.client("u", principal(0), env, signal);
    expect(connects).toBe(4);
    release();
    expect(await evicted).toBeInstanceOf(Error);
    expect(await pool.client("u", principal(0), env, signal)).toBe(newer);
    expect(connects).toBe(4);
  });

  it("uses a new caller's client for its request, without keeping it, once the pool is full", async () => {
    const connects = new Map<string, number>();
    const upstream = alphaUnless(env, "u", (sent, request) => {
      const who = request.headers.get("Authorization") ?? "";
      if (sent.method === "server/discover") connects.set(who, (connects.get(who) ?? 0) + 1);
      return undefined;
    });
    const pool = new ClientPool(new Map([["u", upstream]]), 10_000, {
      maxClients: 2,
      maxPerCaller: 2,
    });
    const signal = new AbortController().signal;
    const as = (subject: string) =>
      pool.client("u", { subject, credential: subject, capabilities: {} }, env, signal);
    const p1 = await as("p1");
    const p2 = await as("p2");
    // The pool is full: p3 gets a working client, and nobody's pooled client is evicted for it.
    for (let i = 0; i < 2; i++) expect(await as("p3")).toBeDefined();
    expect(pool.size).toBe(2);
    expect(await as("p1")).toBe(p1);
    expect(await as("p2")).toBe(p2);
    expect(Object.fromEntries(connects)).toEqual({ p1: 1, p2: 1, p3: 2 });
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

import { createExecutionContext } from "cloudflare:test";
import { fixtureEnv as env } from "../fixture-env.ts";
import { describe, expect, it } from "vitest";
import { mcpApp } from "../../../worker/mcp/hono.ts";
import { readReply } from "../../support/reply.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { alpha, alphaUnless, inProcess, names } from "./support.ts";

const remoteTools = [
  { name: "bad_root", inputSchema: { type: "string" } },
  {
    name: "bad_header",
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "not a header name" } },
    },
  },
  { name: "fine", inputSchema: { type: "object", properties: {} } },
];

const broken = serve(
  hubServer({
    name: "broken-tool-hub",
    upstreams: (env) => [
      alphaUnless(env, "remote", (sent) =>
        sent.method === "tools/list"
          ? Response.json({ jsonrpc: "2.0", id: sent.id, result: { tools: remoteTools } })
          : undefined,
      ),
      inProcess("alpha", alpha),
    ],
  }),
);

const upstreams = async (hub: typeof broken) => {
  const read = await hub.send(
    mcpRequest("resources/read", { uri: "edgemcp://hub/upstreams" }),
    "resources/read",
  );
  return JSON.parse(read.final?.result.contents[0].text).upstreams;
};

describe("an upstream's bad item costs that item, not the hub", () => {
  it("drops a tool whose input schema cannot be served and lists everything else", async () => {
    const { status, final } = await broken.send(mcpRequest("tools/list"), "tools/list");
    expect(status).toBe(200);
    const listed = names(final?.result.tools);
    expect(listed).toContain("remote__fine");
    expect(listed).toContain("alpha__add");
    expect(listed).not.toContain("remote__bad_root");
    expect(listed).not.toContain("remote__bad_header");
  });

  it("still calls the other servers' tools", async () => {
    const { final } = await broken.send(
      mcpRequest("tools/call", { name: "alpha__add", arguments: { a: 2, b: 3 } }),
      "tools/call",
    );
    expect(final?.result.structuredContent).toEqual({ sum: 5 });
  });

  it("reports the dropped tools, and why, in edgemcp://hub/upstreams", async () => {
    const report = await upstreams(broken);
    const remote = report.find((u: { name: string }) => u.name === "remote");
    expect(remote.dropped).toEqual([
      { kind: "tool", name: "remote__bad_root", reason: expect.stringMatching(/type "object"/) },
    ]);
    expect(report.find((u: { name: string }) => u.name === "alpha").dropped).toBeUndefined();
  });
});

let listHangs = false;
const slowHub = mcpApp(
  hubServer({
    name: "slow-list-hub",
    listTimeoutMs: 60_000,
    upstreams: (env) => [
      // Its lists are never cacheable (no ttlMs), and after the first one they never come.
      alphaUnless(env, "slow", (sent) => {
        if (!sent.method.endsWith("/list")) return undefined;
        if (listHangs) return new Promise<Response>(() => {});
        const result = sent.method === "tools/list" ? { tools: [] } : {};
        return Response.json({ jsonrpc: "2.0", id: sent.id, result: fill(sent.method, result) });
      }),
      inProcess("alpha", alpha),
    ],
  }),
);
// Not the suite's serve(): it waits for the request's background work, which here is the
// hanging reload.
const slow = {
  send: async (request: Request, method: string) =>
    readReply(
      await slowHub.fetch(
        new Request(new URL("/", request.url), request),
        env,
        createExecutionContext(),
      ),
      method,
    ),
};

/** An empty list of the kind a list method answers. */
function fill(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const key = { "prompts/list": "prompts", "resources/list": "resources" }[method];
  if (method === "resources/templates/list") return { resourceTemplates: [] };
  return key ? { [key]: [] } : result;
}

describe("a slow upstream does not hold the others", () => {
  it("answers from the last catalog while an uncacheable upstream's lists hang", async () => {
    const first = await slow.send(mcpRequest("tools/list"), "tools/list");
    expect(names(first.final?.result.tools)).toContain("alpha__add");
    listHangs = true;
    await scheduler.wait(1_100); // past the shortest time the hub keeps its catalog
    const call = await slow.send(
      mcpRequest("tools/call", { name: "alpha__add", arguments: { a: 1, b: 1 } }),
      "tools/call",
    );
    expect(call.final?.result.structuredContent).toEqual({ sum: 2 });
    const listed = await slow.send(mcpRequest("tools/list"), "tools/list");
    expect(names(listed.final?.result.tools)).toContain("alpha__add");
  });
});

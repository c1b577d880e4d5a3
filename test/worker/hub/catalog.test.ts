import { describe, expect, it } from "vitest";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { alphaUnless, send, names } from "./support.ts";
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
      "edgemcp://hub/upstreams",
      "alpha://readme",
    ]);
    // Each upstream's resources say where they come from, as its tools do; the hub's own not.
    expect(
      resources.final?.result.resources.map(
        (r: { _meta?: Record<string, unknown> }) => r._meta?.["dev.edgemcp/upstream"],
      ),
    ).toEqual([undefined, { server: "alpha" }]);
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

import { describe, expect, it } from "vitest";
import {
  mergeCacheHints,
  mergeCatalogs,
  type UpstreamCatalog,
} from "../../../shared/hub/catalog.ts";
import type { McpClient } from "../../../shared/client/index.ts";
import { Hub } from "../../../shared/hub/hub.ts";
const naming = { separator: "__" };
const upstream = (name: string, extra: Partial<UpstreamCatalog> = {}): UpstreamCatalog => ({
  upstream: name,
  tools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
  cache: { ttlMs: 1000, cacheScope: "public" },
  ...extra,
});
const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("merging catalogs", () => {
  it("keeps upstream order and renames tools", () => {
    const merged = mergeCatalogs(
      [upstream("b", { tools: [tool("x")] }), upstream("a", { tools: [tool("y"), tool("x")] })],
      naming,
    );
    expect(merged.tools.map((e) => [e.item.name, e.upstream, e.original])).toEqual([
      ["b__x", "b", "x"],
      ["a__y", "a", "y"],
      ["a__x", "a", "x"],
    ]);
  });

  it("leaves out every side of a collision and reports it", () => {
    const merged = mergeCatalogs(
      [
        upstream("a", {
          resources: [{ uri: "s://1", name: "1" }],
          resourceTemplates: [{ uriTemplate: "t://{x}", name: "t" }],
        }),
        upstream("b", {
          resources: [{ uri: "s://1", name: "1" }],
          resourceTemplates: [{ uriTemplate: "t://{x}", name: "t" }],
        }),
      ],
      naming,
    );
    expect(merged.resources).toEqual([]);
    expect(merged.resourceTemplates).toEqual([]);
    expect(merged.collisions).toEqual([
      { kind: "resource", key: "s://1", upstreams: ["a", "b"] },
      { kind: "resourceTemplate", key: "t://{x}", upstreams: ["a", "b"] },
    ]);
  });

  it("leaves out names that would be too long, saying why", () => {
    const merged = mergeCatalogs([upstream("a", { tools: [tool("x".repeat(127))] })], naming);
    expect(merged.tools).toEqual([]);
    expect(merged.excluded[0]?.reason).toMatch(/not a valid name/);
  });

  it("leaves out a resource template that does not parse, saying why, and keeps the rest", () => {
    const merged = mergeCatalogs(
      [
        upstream("a", {
          resourceTemplates: [
            { uriTemplate: "broken://{x", name: "broken" },
            { uriTemplate: "files://{path}", name: "file" },
          ],
        }),
      ],
      naming,
    );
    expect(merged.resourceTemplates.map((e) => [e.item.uriTemplate, e.template.variables])).toEqual(
      [["files://{path}", ["path"]]],
    );
    expect(merged.excluded).toEqual([
      {
        kind: "resourceTemplate",
        upstream: "a",
        name: "broken://{x",
        reason: expect.stringMatching(/unclosed "\{"/),
      },
    ]);
  });

  it("merges cache hints to the strictest", () => {
    expect(
      mergeCacheHints([
        { ttlMs: 1000, cacheScope: "public" },
        { ttlMs: 300, cacheScope: "private" },
      ]),
    ).toEqual({ ttlMs: 300, cacheScope: "private" });
    expect(mergeCacheHints([])).toEqual({ ttlMs: 0, cacheScope: "private" });
  });
});

describe("resource owners", () => {
  it("finds the upstream of a listed resource, else of the first template matching", () => {
    const hub = new Hub({ upstreams: ["a", "b"] });
    const view = {
      ...mergeCatalogs(
        [
          upstream("a", {
            resources: [{ uri: "notes://readme", name: "readme" }],
            resourceTemplates: [{ uriTemplate: "files://{path}", name: "file" }],
          }),
          upstream("b", { resourceTemplates: [{ uriTemplate: "notes://{id}", name: "note" }] }),
        ],
        naming,
      ),
      status: [],
      builtAt: 0,
    };
    for (let round = 0; round < 2; round++) {
      expect(hub.resourceOwner(view, "notes://readme")).toEqual({ upstream: "a" });
      expect(hub.resourceOwner(view, "notes://42")).toEqual({ upstream: "b" });
      expect(hub.resourceOwner(view, "files://x")).toEqual({ upstream: "a" });
      expect(hub.resourceOwner(view, "other://x")).toBeUndefined();
    }
  });
});

describe("an upstream's cache hint", () => {
  it("is the strictest of all its lists' hints, not the first list's", async () => {
    const list = (key: string, ttlMs: number, cacheScope: "public" | "private") => async () => ({
      result: { [key]: [], ttlMs, cacheScope },
    });
    const client = {
      server: { capabilities: { tools: {}, prompts: {}, resources: {} } },
      listTools: list("tools", 60_000, "public"),
      listPrompts: list("prompts", 5_000, "public"),
      listResources: list("resources", 30_000, "private"),
      listResourceTemplates: list("resourceTemplates", 60_000, "public"),
    } as unknown as McpClient;
    const view = await new Hub({ upstreams: ["a"] }).view(async () => client);
    expect(view.status).toEqual([
      { upstream: "a", ok: true, tools: expect.any(Number), latencyMs: expect.any(Number) },
    ]);
    expect(view.cache).toEqual({ ttlMs: 5_000, cacheScope: "private" });
  });
});

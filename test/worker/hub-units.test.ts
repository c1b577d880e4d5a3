import { describe, expect, it } from "vitest";
import { mergeCacheHints, mergeCatalogs, type UpstreamCatalog } from "../../shared/hub/catalog.ts";
import type { McpClient } from "../../shared/client/index.ts";
import { Hub } from "../../shared/hub/hub.ts";
import { namespaceKeys, upstreamKeys } from "../../shared/hub/input-keys.ts";
import { splitPrefixed } from "../../shared/hub/names.ts";
import { renameIn } from "../../worker/hub/errors.ts";
import { DynamicServer } from "../../worker/mcp/index.ts";

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

describe("hub names", () => {
  it("splits a prefixed name at the longest matching upstream", () => {
    expect(splitPrefixed("a__b__c", ["a", "a__b"], naming)).toEqual({
      upstream: "a__b",
      original: "c",
    });
    expect(splitPrefixed("a__x", ["a", "a__b"], naming)).toEqual({ upstream: "a", original: "x" });
    expect(splitPrefixed("zz__x", ["a"], naming)).toBeUndefined();
    expect(splitPrefixed("a__", ["a"], naming)).toBeUndefined();
  });

  it("namespaces input keys and takes back only an upstream's own", () => {
    expect(namespaceKeys("a", { k: 1 }, naming)).toEqual({ a__k: 1 });
    expect(upstreamKeys("a", { a__k: 1, b__k: 2, other: 3 }, naming)).toEqual({ k: 1 });
  });

  it("gives an upstream its own answers even when a longer upstream name shares the prefix", () => {
    // A request is forwarded to one upstream, and the keys it carries were namespaced for that
    // upstream alone: a's key "b__k" travels as "a__b__k" and must reach a, upstream "a__b" or not.
    expect(namespaceKeys("a", { b__k: 1 }, naming)).toEqual({ a__b__k: 1 });
    expect(upstreamKeys("a", { a__b__k: 1 }, naming)).toEqual({ b__k: 1 });
  });
});

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
    expect(view.status).toEqual([{ upstream: "a", ok: true }]);
    expect(view.cache).toEqual({ ttlMs: 5_000, cacheScope: "private" });
  });
});

describe("upstream error messages", () => {
  const add = { kind: "tool", original: "add", exposed: "math__add" } as const;

  it.each([
    [
      'Invalid arguments for tool "add": arguments.a: expected number',
      'Invalid arguments for tool "math__add": arguments.a: expected number',
    ],
    ["Tool add not found", "Tool math__add not found"],
    [
      "MCP error -32602: Invalid arguments for tool add: bad",
      "MCP error -32602: Invalid arguments for tool math__add: bad",
    ],
  ])("names the tool as the hub's client knows it: %s", (message, expected) => {
    expect(renameIn(message, add)).toBe(expected);
  });

  it("leaves other words, longer names and other kinds alone", () => {
    expect(renameIn("add more digits", add)).toBe("add more digits");
    expect(renameIn('Unknown tool "add_numbers"', add)).toBe('Unknown tool "add_numbers"');
    expect(renameIn('Invalid arguments for prompt "add"', add)).toBe(
      'Invalid arguments for prompt "add"',
    );
  });

  it("treats names as text, not patterns", () => {
    const dotted = { kind: "tool", original: "a.b", exposed: "x__a.b" } as const;
    expect(renameIn("Tool axb not found", dotted)).toBe("Tool axb not found");
    expect(renameIn("Tool a.b not found", dotted)).toBe("Tool x__a.b not found");
  });
});

describe("a dynamic server's catalog", () => {
  const context = { env: {} as Cloudflare.Env, waitUntil: () => {} };
  /** A server whose loads are counted, and fail while `state.fail` is set. */
  const counted = (ttlMs: number, hold?: (load: number) => Promise<void> | undefined) => {
    const state = { loads: 0, fail: false };
    const server = new DynamicServer("dyn", async () => {
      const load = ++state.loads;
      await hold?.(load);
      if (state.fail) throw new Error("upstreams down");
      return { definition: { name: "dyn", version: `${load}` }, ttlMs };
    });
    return { server, state };
  };

  it("keeps serving the last good catalog when the reload after an invalidation fails", async () => {
    const { server, state } = counted(60_000);
    const first = await server.catalogFor(context);
    state.fail = true;
    server.invalidate();
    expect(await server.catalogFor(context)).toBe(first);
    expect(state.loads).toBe(2);
  });

  it("tries a failed reload again a short while later, not on every request", async () => {
    const { server, state } = counted(0);
    const first = await server.catalogFor(context);
    state.fail = true;
    expect(await server.catalogFor(context)).toBe(first);
    expect(await server.catalogFor(context)).toBe(first);
    expect(state.loads).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    state.fail = false;
    expect(await server.catalogFor(context)).not.toBe(first);
    expect(state.loads).toBe(3);
  });

  it("does not keep a load that an invalidation overtook", async () => {
    let release = () => {};
    const { server, state } = counted(60_000, (load) =>
      load === 2 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    );
    await server.catalogFor(context);
    server.invalidate();
    const overtaken = server.catalogFor(context);
    server.invalidate();
    const fresh = server.catalogFor(context);
    release();
    await overtaken;
    const latest = await fresh;
    expect(state.loads).toBe(3);
    expect(await server.catalogFor(context)).toBe(latest);
    expect(state.loads).toBe(3);
  });
});

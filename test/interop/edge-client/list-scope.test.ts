import { afterEach, describe, expect, it } from "vitest";
import { connect } from "../../../shared/client/index.ts";
import { startFakeServer, type FakeServer } from "./fake-server.ts";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("edgemcp client: a list joined from pages with different cache hints", () => {
  let fake: FakeServer;
  afterEach(() => fake.close());

  const pagedTools = (second: { ttlMs: number; cacheScope: "public" | "private" }) =>
    startFakeServer({
      "tools/list": (call, reply) =>
        call.params.cursor === undefined
          ? reply.result({
              resultType: "complete",
              tools: [tool("a")],
              nextCursor: "2",
              ttlMs: 60_000,
              cacheScope: "public",
            })
          : reply.result({ resultType: "complete", tools: [tool("b")], ...second }),
    });

  it("is private when any page is", async () => {
    fake = await pagedTools({ ttlMs: 60_000, cacheScope: "private" });
    const client = await connect(fake.url);
    const reply = await client.listTools();
    expect(reply.result.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(reply.cacheScope).toBe("private");
    expect(reply.freshUntil).toBeGreaterThan(Date.now());
  });

  it("states no scope or freshness when a page was not cached", async () => {
    fake = await pagedTools({ ttlMs: 0, cacheScope: "public" });
    const client = await connect(fake.url);
    const reply = await client.listTools();
    expect(reply.result.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(reply).not.toHaveProperty("cacheScope");
    expect(reply).not.toHaveProperty("freshUntil");
  });
});

import { describe, expect, it } from "vitest";
import { addHandles, collectHandles, offersFor } from "../../web/src/lib/wallet.ts";
import { upstreamOf, upstreamReport } from "../../web/src/lib/catalog-view.ts";

describe("the handle wallet", () => {
  const found = collectHandles(
    {
      analysis: "v1.AbCdEfGhIjKlMnOp.qrst",
      window: { from: "2026-01-01" },
      next: "c_1234567890abcdef",
      count: 3,
    },
    "open_analysis",
    1,
  );

  it("collects handle-like members of a structured result", () => {
    expect(found.map((h) => h.key)).toEqual(["analysis", "next"]);
  });

  it("offers a handle to a field of the same name, or one its description names", () => {
    expect(offersFor("analysis", undefined, found).map((h) => h.key)).toEqual(["analysis"]);
    expect(
      offersFor("cursor", "The `next` value of a previous page", found).map((h) => h.key),
    ).toEqual(["next"]);
    expect(offersFor("title", "A title", found)).toEqual([]);
  });

  it("keeps the newest copy of a value once", () => {
    const again = collectHandles({ next: "c_1234567890abcdef" }, "execute_query", 2);
    expect(addHandles(found, again).map((h) => [h.key, h.tool])).toEqual([
      ["next", "execute_query"],
      ["analysis", "open_analysis"],
    ]);
  });
});

describe("hub grouping", () => {
  it("reads an entry's upstream from its provenance, else from its prefix", () => {
    const tool = {
      kind: "tool" as const,
      key: "t",
      item: { name: "notes__create_note", inputSchema: {} },
    };
    expect(upstreamOf(tool, ["notes"])).toBe("notes");
    const marked = {
      ...tool,
      item: { ...tool.item, _meta: { "dev.edgemcp/upstream": { server: "ops", name: "x" } } },
    };
    expect(upstreamOf(marked, [])).toBe("ops");
  });

  it("reads each upstream's health, latency and tools from the hub's status resource", () => {
    const text = JSON.stringify({
      checkedAt: "2026-12-01T08:00:00.000Z",
      upstreams: [
        { name: "notes", health: "ok", latencyMs: 12, tools: 4, credentials: "forward" },
        { name: "ext", health: "unavailable", latencyMs: 5000, tools: 0, reason: "timed out" },
      ],
    });
    expect(upstreamReport(text)).toEqual([
      { name: "notes", ok: true, latencyMs: 12, tools: 4 },
      { name: "ext", ok: false, reason: "timed out", latencyMs: 5000, tools: 0 },
    ]);
  });

  it.each(["", "not json", "{}", '{"upstreams":{}}', '{"upstreams":[1,{"health":"ok"}]}'])(
    "reads %j as no report",
    (text) => {
      expect(upstreamReport(text)).toEqual([]);
    },
  );
});

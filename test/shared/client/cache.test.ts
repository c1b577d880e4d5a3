import { describe, expect, it } from "vitest";
import { ClientCaches } from "../../../shared/client/cache.ts";
import type { ReadResourceResult } from "../../../shared/protocol/results.ts";

const read = (uri: string): ReadResourceResult => ({ contents: [{ uri, text: uri }] });

/** The URIs whose cached reads survive an update to `updated`. */
function survivors(cached: string[], updated: string): string[] {
  const caches = new ClientCaches();
  for (const uri of cached) caches.reads.set(uri, "", read(uri), 60_000, "public");
  caches.invalidate({ method: "notifications/resources/updated", params: { uri: updated } });
  return cached.filter((uri) => caches.reads.get(uri, "") !== undefined);
}

describe("the client's read cache on notifications/resources/updated", () => {
  it("drops the updated URI, its sub-resources and the resources containing it", () => {
    const cached = ["notes://a", "notes://a/b", "notes://a?v=2", "notes://ab", "notes://c"];
    expect(survivors(cached, "notes://a")).toEqual(["notes://ab", "notes://c"]);
    expect(survivors(cached, "notes://a/b")).toEqual(["notes://a?v=2", "notes://ab", "notes://c"]);
  });

  it("treats a URI ending in a separator as a container", () => {
    const cached = ["file:///dir/", "file:///dir/a", "file:///dirt"];
    expect(survivors(cached, "file:///dir/a")).toEqual(["file:///dirt"]);
    expect(survivors(cached, "file:///dir/")).toEqual(["file:///dirt"]);
  });
});

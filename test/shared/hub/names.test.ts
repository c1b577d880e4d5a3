import { describe, expect, it } from "vitest";
import { namespaceKeys, upstreamKeys } from "../../../shared/hub/input-keys.ts";
import { splitPrefixed } from "../../../shared/hub/names.ts";
const naming = { separator: "__" };

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

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { contentProblem } from "../../../shared/protocol/content-check.ts";
import { ContentBlockSchema } from "../../../shared/protocol/content.ts";

class Box {
  value = 1;
}

const text = { type: "text", text: "a" };
const link = { type: "resource_link", uri: "a://b", name: "b" };
const embedded = (resource: unknown) => ({ type: "resource", resource });
/** A `_meta` whose one member, `key`, is not enumerable (JSON and zod's records skip it). */
const hidden = (key: PropertyKey) => Object.defineProperty({}, key, { value: 1 });

// Each block with what the hand-check says of it (undefined: valid content). The schema must
// agree on every one: the hand-check takes what ContentBlockSchema takes, no more, no less.
const BLOCKS: [string, unknown, string | undefined][] = [
  ["a text block", text, undefined],
  ["a text block with unknown members", { ...text, extra: 1 }, undefined],
  ["a text block without text", { type: "text" }, "content[0].text: expected a string"],
  ["a text block with a number", { type: "text", text: 1 }, "content[0].text: expected a string"],
  ["an unknown type", { type: "video" }, "content[0].type: expected one of"],
  ["a block without a type", { text: "a" }, "content[0].type: expected one of"],
  ["a type inherited from the prototype", { type: "toString" }, "content[0].type: expected one of"],
  ["a string", "a", "content[0].type: expected one of"],
  ["null", null, "content[0].type: expected one of"],
  ["an image", { type: "image", data: "AA==", mimeType: "image/png" }, undefined],
  ["an image without mimeType", { type: "image", data: "AA==" }, "content[0].mimeType"],
  ["audio without data", { type: "audio", mimeType: "audio/wav" }, "content[0].data"],
  ["a resource link", link, undefined],
  ["a link without a name", { ...link, name: undefined }, "content[0].name"],
  ["a link with a size", { ...link, size: 12 }, undefined],
  ["a link with a size that is text", { ...link, size: "12" }, "content[0].size"],
  ["a link with an infinite size", { ...link, size: Infinity }, "content[0].size"],
  ["a link with a NaN size", { ...link, size: NaN }, "content[0].size"],
  ["a link with a title", { ...link, title: "B", description: "d", mimeType: "x/y" }, undefined],
  ["a link with a numeric title", { ...link, title: 1 }, "content[0].title"],
  ["a link with icons", { ...link, icons: [{ src: "https://x", theme: "dark" }] }, undefined],
  ["a link with icons not an array", { ...link, icons: { src: "x" } }, "content[0].icons"],
  ["an icon without src", { ...link, icons: [{ theme: "dark" }] }, "content[0].icons[0].src"],
  ["an icon with a bad theme", { ...link, icons: [{ src: "x", theme: "blue" }] }, "theme"],
  ["an icon with sizes", { ...link, icons: [{ src: "x", sizes: ["48x48"] }] }, undefined],
  ["an icon with numeric sizes", { ...link, icons: [{ src: "x", sizes: [48] }] }, "sizes[0]"],
  [
    "an icon with sizes not a list",
    { ...link, icons: [{ src: "x", sizes: "48x48" }] },
    "icons[0].sizes: expected an array",
  ],
  [
    "an icon with a numeric mimeType",
    { ...link, icons: [{ src: "x", mimeType: 1 }] },
    "icons[0].mimeType: expected a string",
  ],
  [
    "an icon that is not an object",
    { ...link, icons: ["https://x"] },
    "content[0].icons[0]: expected an object",
  ],
  ["an embedded text", embedded({ uri: "a://b", text: "t" }), undefined],
  ["an embedded blob", embedded({ uri: "a://b", blob: "AA==", mimeType: "x/y" }), undefined],
  ["an embedded resource without contents", embedded({ uri: "a://b" }), "content[0].resource"],
  ["an embedded resource without uri", embedded({ text: "t" }), "content[0].resource.uri"],
  ["an embedded resource not an object", embedded("a://b"), "content[0].resource"],
  ["embedded _meta", embedded({ uri: "a://b", text: "t", _meta: { a: 1 } }), undefined],
  ["embedded _meta not an object", embedded({ uri: "a://b", text: "t", _meta: [] }), "_meta"],
  ["annotations", { ...text, annotations: { audience: ["user"], priority: 0.5 } }, undefined],
  ["annotations at the bounds", { ...text, annotations: { priority: 1 } }, undefined],
  ["a priority above 1", { ...text, annotations: { priority: 1.5 } }, "priority"],
  ["a priority below 0", { ...text, annotations: { priority: -0.1 } }, "priority"],
  ["a priority that is text", { ...text, annotations: { priority: "1" } }, "priority"],
  ["an unknown audience", { ...text, annotations: { audience: ["bot"] } }, "audience[0]"],
  ["annotations not an object", { ...text, annotations: "x" }, "content[0].annotations"],
  ["lastModified a number", { ...text, annotations: { lastModified: 1 } }, "lastModified"],
  ["_meta", { ...text, _meta: { "a/b": 1 } }, undefined],
  ["_meta null", { ...text, _meta: null }, "content[0]._meta: expected a JSON object"],
  ["_meta an instance", { ...text, _meta: new Box() }, "content[0]._meta"],
  ["_meta a Date", { ...text, _meta: new Date(0) }, "content[0]._meta"],
  ["_meta without a prototype", { ...text, _meta: Object.create(null) }, undefined],
  [
    "_meta with a symbol key",
    { ...text, _meta: { [Symbol("k")]: 1 } },
    "content[0]._meta: expected a JSON object",
  ],
  ["_meta with a hidden symbol key", { ...text, _meta: hidden(Symbol("k")) }, undefined],
  ["_meta with a hidden string key", { ...text, _meta: hidden("k") }, undefined],
  [
    "embedded _meta with a symbol key",
    embedded({ uri: "a://b", text: "t", _meta: { [Symbol("k")]: 1 } }),
    "content[0].resource._meta",
  ],
  ["an optional member given as undefined", { ...text, _meta: undefined }, undefined],
];

describe("content blocks are checked by hand as the protocol's schema checks them", () => {
  it.each(BLOCKS)("%s", (_what, block, problem) => {
    const found = contentProblem([block], "content");
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
    expect(found === undefined).toBe(z.safeParse(ContentBlockSchema, block).success);
  });

  it("names the first block that is not content, by its index", () => {
    expect(contentProblem([text, link, { type: "text" }, { type: "x" }], "content")).toBe(
      "content[2].text: expected a string",
    );
  });

  it("takes an empty list", () => {
    expect(contentProblem([], "content")).toBeUndefined();
  });
});

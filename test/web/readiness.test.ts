import { describe, expect, it } from "vitest";
import type { Item } from "../../web/src/lib/catalog-view.ts";
import { argumentsOf, requestOf, whyNotReady } from "../../web/src/lib/readiness.ts";

const tool: Item = {
  kind: "tool",
  key: "tool:add",
  item: {
    name: "add",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number", default: 2 } },
      required: ["a", "b"],
    },
  },
};
const prompt: Item = {
  kind: "prompt",
  key: "prompt:greet",
  item: { name: "greet", arguments: [{ name: "who", required: true }, { name: "tone" }] },
};
const template: Item = {
  kind: "template",
  key: "template:notes://{id}",
  item: { name: "note", uriTemplate: "notes://{id}" },
};
const resource: Item = {
  kind: "resource",
  key: "resource:notes://1",
  item: { name: "one", uri: "notes://1" },
};

describe("whether a request is ready to send", () => {
  it("a tool waits for arguments its schema accepts, counting the problems", () => {
    expect(whyNotReady(tool, {}, true)).toBe("2 problem(s) in the arguments");
    expect(whyNotReady(tool, { a: 1 }, true)).toBe("1 problem(s) in the arguments");
    expect(whyNotReady(tool, { a: 1, b: 2 }, true)).toBeUndefined();
  });

  it("a tool whose JSON text does not parse waits for the JSON first, whatever its last arguments", () => {
    expect(whyNotReady(tool, { a: 1, b: 2 }, false)).toBe("Fix the JSON first");
  });

  it("a prompt waits for its required arguments by name; optional ones may stay empty", () => {
    expect(whyNotReady(prompt, undefined, true)).toBe("Fill who");
    expect(whyNotReady(prompt, { who: "" }, true)).toBe("Fill who");
    expect(whyNotReady(prompt, { who: "Ada" }, true)).toBeUndefined();
  });

  it("a template waits for every variable, and a resource is always ready", () => {
    expect(whyNotReady(template, { id: "" }, true)).toBe("Fill every variable");
    expect(whyNotReady(template, { id: "7" }, true)).toBeUndefined();
    expect(whyNotReady(resource, undefined, true)).toBeUndefined();
  });

  it("a tool with no draft is sent with its schema's defaults; other kinds with their draft", () => {
    expect(argumentsOf(tool, undefined)).toMatchObject({ b: 2 });
    expect(argumentsOf(tool, { a: 5 })).toEqual({ a: 5 });
    expect(argumentsOf(prompt, undefined)).toBeUndefined();
  });

  it("names each kind's request: a tool or prompt by name, a resource by URI, a template by its template", () => {
    expect(requestOf(tool)).toEqual({ kind: "tool", name: "add" });
    expect(requestOf(prompt)).toEqual({ kind: "prompt", name: "greet" });
    expect(requestOf(resource)).toEqual({ kind: "resource", name: "notes://1" });
    expect(requestOf(template)).toEqual({ kind: "template", name: "notes://{id}" });
  });
});

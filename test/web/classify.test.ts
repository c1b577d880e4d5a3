import { describe, expect, it } from "vitest";
import {
  classifyBlock,
  dataUrl,
  looksLikeMarkdown,
  viewToolResult,
} from "../../web/src/lib/classify.ts";

describe("result classification", () => {
  it("shows images and audio only as well-formed data URLs", () => {
    expect(classifyBlock({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" })).toEqual({
      kind: "image",
      src: "data:image/png;base64,iVBORw0KGgo=",
      mimeType: "image/png",
    });
    expect(classifyBlock({ type: "image", data: "<script>", mimeType: "image/png" }).kind).toBe(
      "invalid",
    );
    expect(dataUrl("text/html;x", "AAAA")).toBeUndefined();
  });

  it("turns resource links into readable links and embedded blobs into media or byte counts", () => {
    expect(
      classifyBlock({ type: "resource_link", uri: "notes://note-1", name: "n" }),
    ).toMatchObject({ kind: "link", uri: "notes://note-1" });
    expect(
      classifyBlock({
        type: "resource",
        resource: { uri: "x://a", mimeType: "application/octet-stream", blob: "AAAA" },
      }),
    ).toMatchObject({ kind: "embedded", bytes: 3 });
    expect(
      classifyBlock({
        type: "resource",
        resource: { uri: "x://p", mimeType: "image/png", blob: "AAAA" },
      }),
    ).toMatchObject({ media: { kind: "image" } });
  });

  it("counts a blob's bytes without its padding and offers to save it under its URI's name", () => {
    const blob = (uri: string, data: string) =>
      classifyBlock({ type: "resource", resource: { uri, mimeType: "text/plain", blob: data } });
    expect(blob("x://files/hello.txt", "aGVsbG8gd29ybGQ=")).toMatchObject({
      bytes: 11,
      save: { href: "data:text/plain;base64,aGVsbG8gd29ybGQ=", fileName: "hello.txt" },
    });
    expect(blob("x://a/b%20c", "aGk=")).toMatchObject({ bytes: 2, save: { fileName: "b c" } });
    expect(blob("x://a/", "")).toMatchObject({ bytes: 0, save: { fileName: "resource" } });
    expect(blob("x://bad", "<svg>")).not.toHaveProperty("save");
  });

  it("offers Markdown rendering only for text that looks like it", () => {
    expect(looksLikeMarkdown("# Title\n\n- one")).toBe(true);
    expect(looksLikeMarkdown("Counted to 10")).toBe(false);
  });

  it("checks structuredContent against the output schema and names the mismatch", () => {
    const schema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };
    expect(
      viewToolResult({ content: [], structuredContent: { sum: 5 } }, schema).structured?.problems,
    ).toEqual([]);
    expect(
      viewToolResult({ content: [], structuredContent: { sum: "5" } }, schema).structured?.problems,
    ).toEqual([{ pointer: "/sum", message: expect.stringContaining("string") }]);
    expect(viewToolResult({ content: [] }, schema).missingStructured).toBe(true);
  });

  it("marks isError results as the tool's failure, in the words the model reads", () => {
    const view = viewToolResult(
      { content: [{ type: "text", text: "disk full" }], isError: true },
      undefined,
    );
    expect(view.isError).toBe(true);
    expect(view.modelText).toBe("Tool error: disk full");
  });
});

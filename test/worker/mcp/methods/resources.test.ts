import { describe, expect, it } from "vitest";
import { call } from "../../call.ts";

describe("resources", () => {
  it("lists fixed and template-listed resources across pages, first page first", async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { final } = await call("resources/list", cursor ? { cursor } : {});
      expect(final?.result).toMatchObject({ ttlMs: 60000, cacheScope: "public" });
      uris.push(...(final?.result.resources ?? []).map((r: { uri: string }) => r.uri));
      cursor = final?.result.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(uris.slice(0, 4)).toEqual([
      "test://static-text",
      "test://static-binary",
      "test://watched-resource",
      "test://items/1",
    ]);
    expect(uris).toHaveLength(28);
  });

  it("lists templates", async () => {
    const { final } = await call("resources/templates/list");
    expect(final?.result.resourceTemplates[0]).toMatchObject({
      uriTemplate: "test://template/{id}/data",
      name: "template",
      mimeType: "application/json",
    });
  });

  it("reads text with its mime type and the server's cache hint", async () => {
    const { final } = await call("resources/read", { uri: "test://static-text" });
    expect(final?.result).toMatchObject({
      contents: [
        {
          uri: "test://static-text",
          mimeType: "text/plain",
          text: "This is the content of the static text resource.",
        },
      ],
      ttlMs: 60000,
      cacheScope: "public",
    });
  });

  it("reads binary as base64 blob", async () => {
    const { final } = await call("resources/read", { uri: "test://static-binary" });
    expect(final?.result.contents[0]).toMatchObject({
      mimeType: "image/png",
      blob: expect.stringMatching(/^iVBOR/),
    });
  });

  it("uses a resource's own cache hint", async () => {
    const { final } = await call("resources/read", { uri: "test://watched-resource" });
    expect(final?.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("reads through a template with the URI's variables", async () => {
    const { final } = await call("resources/read", { uri: "test://template/123/data" });
    expect(JSON.parse(final?.result.contents[0].text)).toEqual({
      id: "123",
      templateTest: true,
      data: "Data for ID: 123",
    });
  });

  it("decodes percent-encoded template variables", async () => {
    const { final } = await call("resources/read", { uri: "test://template/a%20b/data" });
    expect(JSON.parse(final?.result.contents[0].text).id).toBe("a b");
  });

  it.each(["test://nonexistent", "test://items/99", "test://items/x"])(
    "answers %s, which does not exist, with -32602 and the uri",
    async (uri) => {
      const { final } = await call("resources/read", { uri });
      expect(final?.error).toMatchObject({
        code: -32602,
        data: { uri },
        message: expect.stringMatching(/Resource not found/),
      });
    },
  );

  it("refuses a uri that is not an absolute URI", async () => {
    const { final } = await call(
      "resources/read",
      { uri: "no scheme here" },
      { headers: { "Mcp-Name": "no scheme here" } },
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/absolute URI/),
    });
  });
});

describe("prompts", () => {
  it("lists prompts with their arguments derived from zod", async () => {
    const { final } = await call("prompts/list");
    const withArgs = final?.result.prompts.find(
      (p: { name: string }) => p.name === "test_prompt_with_arguments",
    );
    expect(withArgs).toEqual({
      name: "test_prompt_with_arguments",
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    });
    const summarize = final?.result.prompts.find(
      (p: { name: string }) => p.name === "summarize_text",
    );
    expect(summarize.arguments[1]).toEqual({
      name: "style",
      description: "bullet-points, one-line or paragraph",
      required: false,
    });
  });

  it("gets a prompt with its arguments filled in", async () => {
    const { final } = await call("prompts/get", {
      name: "test_prompt_with_arguments",
      arguments: { arg1: "A", arg2: "B" },
    });
    expect(final?.result).toMatchObject({
      resultType: "complete",
      messages: [
        {
          role: "user",
          content: { type: "text", text: "Prompt with arguments: arg1='A', arg2='B'" },
        },
      ],
    });
  });

  it("keeps a description returned by the prompt", async () => {
    const { final } = await call("prompts/get", {
      name: "summarize_text",
      arguments: { text: "t", style: "one-line" },
    });
    expect(final?.result.description).toBe("Summary request (one-line)");
  });

  it("answers a missing required argument with -32602 naming it", async () => {
    const { final } = await call("prompts/get", {
      name: "test_prompt_with_arguments",
      arguments: { arg1: "A" },
    });
    expect(final?.error).toMatchObject({
      code: -32602,
      message:
        'Invalid arguments for prompt "test_prompt_with_arguments": missing required argument "arg2"',
    });
  });

  it("answers an unknown prompt with -32602", async () => {
    const { final } = await call("prompts/get", { name: "nope" });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown prompt "nope"/),
    });
  });

  it("refuses non-string argument values", async () => {
    const { final } = await call("prompts/get", {
      name: "test_prompt_with_arguments",
      arguments: { arg1: 1, arg2: "B" },
    });
    expect(final?.error.code).toBe(-32602);
  });
});

describe("completion/complete", () => {
  it("completes a prompt argument", async () => {
    const { final } = await call("completion/complete", {
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "test" },
    });
    expect(final?.result.completion).toEqual({
      values: ["test-alpha", "test-beta"],
      total: 2,
      hasMore: false,
    });
  });

  it("completes a template variable", async () => {
    const { final } = await call("completion/complete", {
      ref: { type: "ref/resource", uri: "test://template/{id}/data" },
      argument: { name: "id", value: "4" },
    });
    expect(final?.result.completion.values).toEqual(["456"]);
  });

  it("answers an argument without a completer with no values", async () => {
    const { final } = await call("completion/complete", {
      ref: { type: "ref/prompt", name: "test_simple_prompt" },
      argument: { name: "x", value: "" },
    });
    expect(final?.result.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it.each([
    [{ type: "ref/prompt", name: "nope" }, /Unknown prompt/],
    [{ type: "ref/resource", uri: "test://{nope}" }, /Unknown resource template/],
  ])("answers an unknown ref with -32602", async (ref, message) => {
    const { final } = await call("completion/complete", {
      ref,
      argument: { name: "x", value: "" },
    });
    expect(final?.error).toMatchObject({ code: -32602, message: expect.stringMatching(message) });
  });

  it("answers a malformed ref with -32602", async () => {
    const { final } = await call("completion/complete", {
      ref: { type: "ref/tool", name: "x" },
      argument: { name: "x", value: "" },
    });
    expect(final?.error.code).toBe(-32602);
  });
});

import type { Client } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_INFO, textOf } from "../support/clients.ts";
import { AUTH, connectPinned, hubUrl } from "./support.ts";
import { EXT_RESOURCE_URI } from "../support/sdk-upstream.ts";

const UPSTREAMS = ["everything", "analytics", "notes", "ops", "ext"];
const PROVENANCE = "dev.edgemcp/upstream";

describe("official v2 client pinned to 2026-07-28: the hub's catalog", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectPinned();
  });
  afterAll(async () => {
    await client.close();
  });

  it("connects to the hub as one 2026-07-28 server whose instructions name every upstream", () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const instructions = client.getDiscoverResult()?.instructions ?? "";
    for (const upstream of UPSTREAMS) expect(instructions).toContain(upstream);
    expect(instructions).not.toContain("unavailable");
  });

  it("lists tools of every upstream, the external SDK server's included, as <server>__<name>", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "everything__add_numbers",
        "everything__test_slow_counter",
        "analytics__execute_query",
        "notes__search_notes",
        "ops__run_build",
        "ext__echo",
        "ext__slow",
      ]),
    );
    for (const upstream of UPSTREAMS)
      expect(names.some((name) => name.startsWith(`${upstream}__`))).toBe(true);
    expect(names.every((name) => UPSTREAMS.some((u) => name.startsWith(`${u}__`)))).toBe(true);
  });

  it("marks every tool with the upstream and the name it has there", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const [server, ...rest] = tool.name.split("__");
      expect(tool._meta?.[PROVENANCE], tool.name).toEqual({ server, name: rest.join("__") });
    }
    expect(tools.find((tool) => tool.name === "ext__echo")?._meta?.[PROVENANCE]).toEqual({
      server: "ext",
      name: "echo",
    });
  });

  it("keeps the upstream's input and output schemas", async () => {
    const { tools } = await client.listTools();
    const add = tools.find((tool) => tool.name === "everything__add_numbers");
    expect(add?.inputSchema).toMatchObject({ type: "object", required: ["a", "b"] });
    expect(add?.outputSchema).toMatchObject({ type: "object", properties: { sum: {} } });
    const echo = tools.find((tool) => tool.name === "ext__echo");
    expect(echo?.inputSchema).toMatchObject({ properties: { text: { type: "string" } } });
  });

  it("lists prompts of every upstream that has some, prefixed and marked", async () => {
    const { prompts } = await client.listPrompts();
    const names = prompts.map((prompt) => prompt.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "everything__test_prompt_with_arguments",
        "analytics__triage_incident",
        "ext__greet",
      ]),
    );
    expect(prompts.find((p) => p.name === "ext__greet")?._meta?.[PROVENANCE]).toEqual({
      server: "ext",
      name: "greet",
    });
  });

  it("lists resources and templates at their own URIs, unprefixed", async () => {
    const uris = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        "test://static-text",
        "d1://analytics/tables/users/schema",
        "notes://note-1",
        EXT_RESOURCE_URI,
      ]),
    );
    const templates = (await client.listResourceTemplates()).resourceTemplates.map(
      (template) => template.uriTemplate,
    );
    expect(templates).toEqual(
      expect.arrayContaining(["notes://note-{id}", "d1://analytics/tables/{table}/schema"]),
    );
  });

  it("reads resources of the upstreams that own them", async () => {
    const text = await client.readResource({ uri: "test://static-text" });
    expect(text.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
    const note = await client.readResource({ uri: "notes://note-1" });
    expect(note.contents[0]).toMatchObject({ uri: "notes://note-1", mimeType: "text/markdown" });
    const about = await client.readResource({ uri: EXT_RESOURCE_URI });
    expect(about.contents).toEqual([
      { uri: EXT_RESOURCE_URI, mimeType: "text/plain", text: "an SDK-built upstream" },
    ]);
  });

  it("gets a prefixed prompt from its upstream under the original name", async () => {
    const result = await client.getPrompt({
      name: "everything__test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(result.messages).toEqual([
      {
        role: "user",
        content: { type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" },
      },
    ]);
    const greet = await client.getPrompt({ name: "ext__greet", arguments: { name: "Ann" } });
    expect(textOf({ content: greet.messages.map((m) => m.content) })).toBe("hi Ann");
  });

  it("completes an argument of a prefixed prompt with its upstream's values", async () => {
    const result = await client.complete({
      ref: { type: "ref/prompt", name: "everything__test_prompt_with_arguments" },
      argument: { name: "arg1", value: "test-" },
    });
    expect(result.completion.values).toEqual(["test-alpha", "test-beta"]);
  });
});

describe("official v1 client (@modelcontextprotocol/sdk 1.32.2) against the hub", () => {
  let client: V1Client;
  beforeAll(async () => {
    client = new V1Client(CLIENT_INFO, { capabilities: {} });
    await client.connect(new V1Transport(hubUrl(), { requestInit: { headers: AUTH } }));
  });
  afterAll(async () => {
    await client.close();
  });

  it("initializes with the hub as its server", () => {
    expect(client.getServerVersion()).toMatchObject({ name: "edgemcp-hub" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
  });

  it("lists the prefixed tools of every upstream", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const upstream of UPSTREAMS)
      expect(
        names.some((name) => name.startsWith(`${upstream}__`)),
        upstream,
      ).toBe(true);
    expect(names).toEqual(expect.arrayContaining(["everything__add_numbers", "ext__echo"]));
  });

  it("calls a prefixed tool and receives its structured content", async () => {
    const result = await client.callTool({
      name: "everything__add_numbers",
      arguments: { a: 2, b: 3 },
    });
    expect(result.structuredContent).toEqual({ sum: 5 });
  });
});

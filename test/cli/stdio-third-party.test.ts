import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_INFO, textOf } from "../interop/support/clients.ts";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { expectThreeSteps, recordMessages, v1BridgeTransport, type WireMessage } from "./cli.ts";

/** What the host read from the bridge (of the last host connected). */
let read: WireMessage[] = [];

/** A 2025-11-25 host: the v1 SDK client over stdio to the bridge, answering input requests. */
async function connectHost(url: string): Promise<V1Client> {
  const client = new V1Client(CLIENT_INFO, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: "accept",
    content: { color: "red", number: 7, pets: "cats" },
  }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
  }));
  const transport = v1BridgeTransport(url);
  await client.connect(transport);
  read = recordMessages(transport);
  return client;
}

describe("edgemcp stdio: a 2025-11-25 host, to server-everything", () => {
  let server: ThirdPartyServer;
  let client: V1Client;
  beforeAll(async () => {
    server = await startThirdParty("everything");
    client = await connectHost(server.url);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("initializes at 2025-11-25 through the bridge and lists the tools", async () => {
    expect(client.getServerVersion()?.name).toBe("mcp-servers/everything");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "trigger-sampling-request"]),
    );
  });

  it("calls echo", async () => {
    const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(textOf(result)).toBe("Echo: hi");
  });

  it("passes each progress step of a long operation on once, in order", async () => {
    const steps: number[] = [];
    const from = read.length;
    const result = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
      undefined,
      { onprogress: ({ progress }) => steps.push(progress) },
    );
    expect(textOf(result)).toContain("Long running operation completed");
    expectThreeSteps(read.slice(from), steps);
  });

  it("does not take a reply's end after its response for a drop to resume", async () => {
    await client.callTool({ name: "echo", arguments: { message: "once" } });
    // A GET with Last-Event-ID here would make this server replay every stream's events (its
    // event store ignores which stream an id belongs to), duplicating messages for the host.
    expect(server.output()).not.toMatch(/Client reconnecting with Last-Event-ID/);
  });

  it("carries the server's sampling request to the host and its answer back", async () => {
    const result = await client.callTool({
      name: "trigger-sampling-request",
      arguments: { prompt: "Capital of France?" },
    });
    expect(textOf(result)).toContain('"text": "Paris"');
  });

  it("reads a resource and gets a prompt", async () => {
    const read = await client.readResource({ uri: "demo://resource/static/document/features.md" });
    expect(read.contents[0]).toMatchObject({ uri: "demo://resource/static/document/features.md" });
    const prompt = await client.getPrompt({ name: "simple-prompt" });
    expect(prompt.messages.length).toBeGreaterThan(0);
  });
});

describe("edgemcp stdio: a 2025-11-25 host, to the SDK's simpleStreamableHttp example", () => {
  let server: ThirdPartyServer;
  let client: V1Client;
  beforeAll(async () => {
    server = await startThirdParty("sdkSimple");
    client = await connectHost(server.url);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("lists and calls its tools", async () => {
    expect(client.getServerVersion()?.name).toBe("simple-streamable-http-server");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["greet", "multi-greet"]),
    );
    const result = await client.callTool({ name: "greet", arguments: { name: "Ann" } });
    expect(textOf(result)).toBe("Hello, Ann!");
  });
});

describe("edgemcp stdio: a 2025-11-25 host, to the SDK's ssePollingExample", () => {
  let server: ThirdPartyServer;
  let client: V1Client;
  beforeAll(async () => {
    server = await startThirdParty("sdkPolling");
    client = await connectHost(server.url);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("resumes the call's stream the server closes midway, and the host gets the result", async () => {
    const result = await client.callTool({ name: "long-task", arguments: {} });
    expect(textOf(result)).toBe("Long task completed successfully!");
  });
});

import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_INFO, serverUrl, textOf, uniqueLabel } from "../interop/support/clients.ts";
import { startSdkV1Server } from "../interop/edge-client/sdk-servers.ts";
import { abortStatus } from "../interop/hub/support.ts";
import { eventually } from "../support/eventually.ts";
import { expectThreeSteps, recordMessages, v1BridgeTransport, type WireMessage } from "./cli.ts";

/** A 2025 host: the v1 SDK client, answering elicitation and sampling requests itself. */
async function connectV1(url: string | URL): Promise<V1Client> {
  const client = new V1Client(CLIENT_INFO, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: "accept",
    content: { response: "yes", name: "Ann" },
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

/** What the client read from the bridge (of the last client connected). */
let read: WireMessage[] = [];

describe("edgemcp stdio: the official v1 client (2025-11-25) over stdio, to the Worker", () => {
  let client: V1Client;
  beforeAll(async () => {
    client = await connectV1(serverUrl("everything"));
  });
  afterAll(async () => {
    await client.close();
  });

  it("initializes through the bridge and lists the tools", async () => {
    expect(client.getServerVersion()?.name).toBe("edgemcp-everything");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("add_numbers");
  });

  it("passes each progress notification on, in order", async () => {
    const steps: number[] = [];
    const from = read.length;
    const result = await client.callTool(
      { name: "test_slow_counter", arguments: { steps: 3, delayMs: 100 } },
      undefined,
      { onprogress: ({ progress }) => steps.push(progress) },
    );
    expect(textOf(result)).toBe("Counted to 3");
    expectThreeSteps(read.slice(from), steps);
  });

  it("relays the server's elicitation request and posts the host's answer back", async () => {
    const result = await client.callTool({
      name: "test_elicitation",
      arguments: { message: "Sure?" },
    });
    expect(textOf(result)).toBe(
      'User response: action=accept, content={"response":"yes","name":"Ann"}',
    );
  });

  it("relays the server's sampling request", async () => {
    const result = await client.callTool({
      name: "test_sampling",
      arguments: { prompt: "Capital?" },
    });
    expect(textOf(result)).toBe("LLM response: Paris");
  });

  it("forwards the host's notifications/cancelled, which stops the tool", async () => {
    const label = uniqueLabel("stdio-legacy");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "test_slow_counter", arguments: { steps: 50, delayMs: 100, label } },
      undefined,
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toThrow(/abort/i);
    const status = await abortStatus(client, "test_abort_status", label);
    expect(status).toMatch(/^aborted/);
    expect(Number(/at step (\d+)/.exec(status)?.[1])).toBeLessThan(50);
  });
});

describe("edgemcp stdio: the v1 client over stdio, to a 2025 server with sessions (SDK v1)", () => {
  let server: Awaited<ReturnType<typeof startSdkV1Server>>;
  let client: V1Client;
  beforeAll(async () => {
    server = await startSdkV1Server();
    client = await connectV1(server.url);
  });
  afterAll(async () => {
    await server.close();
  });

  it("keeps the session the server opened for every later request", async () => {
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(textOf(result)).toBe("hi");
    expect(server.sessions.size).toBe(1);
  });

  it("relays a request the server sends on a call's stream", async () => {
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(textOf(result)).toBe("hello Ann");
  });

  it("passes on what the server sends on the session's own stream", async () => {
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await client.callTool({ name: "announce", arguments: {} });
    await changed;
  });

  it("deletes the session when the host closes stdin", async () => {
    const [sessionId] = server.sessions.keys();
    await client.close();
    await eventually(async () =>
      server.closedSessions.includes(sessionId ?? "") ? true : undefined,
    );
  });
});

import { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerInputs,
  CLIENT_INFO,
  serverUrl,
  textOf,
  uniqueLabel,
} from "../interop/support/clients.ts";
import { abortStatus } from "../interop/hub/support.ts";
import { startSdkV2Server } from "../interop/edge-client/sdk-servers.ts";
import { eventually } from "../support/eventually.ts";
import { bridgeTransport, expectThreeSteps, recordMessages, type WireMessage } from "./cli.ts";

/** A v2 client pinned to 2026-07-28 that answers input requests like a host with a user. */
async function connectThroughBridge(url: string | URL): Promise<Client> {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    capabilities: { elicitation: {}, sampling: {}, roots: {} },
  });
  answerInputs(client);
  const transport = bridgeTransport(url);
  await client.connect(transport);
  read = recordMessages(transport);
  return client;
}

/** What the client read from the bridge (of the last client connected). */
let read: WireMessage[] = [];

describe("edgemcp stdio: the official v2 client over stdio, pinned to 2026-07-28, to the Worker", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectThroughBridge(serverUrl("everything"));
  });
  afterAll(async () => {
    await client.close();
  });

  it("discovers the server and lists its tools through the bridge", async () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("add_numbers");
  });

  it("calls a tool whose arguments go in Mcp-Param-* headers (unsafe values base64-encoded)", async () => {
    const result = await client.callTool({
      name: "test_x_mcp_header",
      arguments: { region: "Zürich", priority: 3, urgent: true },
    });
    expect(textOf(result)).toBe("region=Zürich priority=3 urgent=true");
  });

  it("passes each progress notification on, in order", async () => {
    const steps: number[] = [];
    const from = read.length;
    const result = await client.callTool(
      { name: "test_slow_counter", arguments: { steps: 3, delayMs: 100 } },
      { onprogress: ({ progress }) => steps.push(progress) },
    );
    expect(textOf(result)).toBe("Counted to 3");
    expectThreeSteps(read.slice(from), steps);
  });

  it("turns the host's notifications/cancelled into a closed stream, which stops the tool", async () => {
    const label = uniqueLabel("stdio-modern");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "test_slow_counter", arguments: { steps: 50, delayMs: 100, label } },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toThrow(/abort/i);
    const status = await abortStatus(client, "test_abort_status", label);
    expect(status).toMatch(/^aborted/);
    expect(Number(/at step (\d+)/.exec(status)?.[1])).toBeLessThan(50);
  });

  it("relays input rounds: elicitation, sampling and roots answered by the host", async () => {
    const result = await client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(textOf(result)).toBe("Paris Ann (1 roots)");
  });

  it("keeps a listen stream open and passes its notifications on", async () => {
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true }, { timeout: 10_000 });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await changed;
    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });
});

describe("edgemcp stdio: the v2 client over stdio to a server built with the official SDK", () => {
  let server: Awaited<ReturnType<typeof startSdkV2Server>>;
  let client: Client;
  beforeAll(async () => {
    server = await startSdkV2Server();
    client = await connectThroughBridge(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("passes the SDK server's Mcp-Param-* checks", async () => {
    const result = await client.callTool({ name: "hdr", arguments: { region: " eu ", n: 7 } });
    expect(JSON.parse(textOf(result))).toEqual({ region: " eu ", n: 7 });
  });

  it("cancels an SDK handler by closing its stream", async () => {
    const controller = new AbortController();
    const call = client.callTool(
      { name: "slow", arguments: { steps: 100, label: "stdio-cancel" } },
      {
        signal: controller.signal,
        onprogress: ({ progress }) => progress >= 2 && controller.abort(),
      },
    );
    await expect(call).rejects.toThrow(/abort/i);
    await eventually(async () =>
      server.observed.aborted.includes("stdio-cancel") ? true : undefined,
    );
  });

  it("relays the SDK's input_required round", async () => {
    const result = await client.callTool({ name: "confirm", arguments: { what: "deploy" } });
    expect(textOf(result)).toBe("did deploy");
  });

  it("passes the SDK's listen notifications on", async () => {
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler("notifications/resources/updated", (n) =>
        resolve(n.params.uri),
      ),
    );
    const subscription = await client.listen({ resourceSubscriptions: ["file:///readme.txt"] });
    server.notify.resourceUpdated("file:///readme.txt");
    expect(await updated).toBe("file:///readme.txt");
    await subscription.close();
  });
});

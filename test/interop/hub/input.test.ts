import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { CLIENT_INFO, textOf } from "../support/clients.ts";
import { AUTH, hubUrl } from "./support.ts";
import { EXT_REQUEST_STATE } from "../support/sdk-upstream.ts";
import { methodOf, wireLog } from "../support/wire-log.ts";

const InputRequiredReply = z.object({
  result: z.object({
    resultType: z.literal("input_required"),
    inputRequests: z.record(z.string(), z.unknown()),
    requestState: z.string(),
  }),
});
const RetryBody = z.object({
  params: z.object({
    inputResponses: z.record(z.string(), z.unknown()),
    requestState: z.string(),
  }),
});

/** What the user answers: a name, a color, or a confirmation, depending on the question. */
function answerTo(message: string): Record<string, string | boolean> {
  if (message.includes("color")) return { color: "blue" };
  return message.startsWith("Do ") ? { ok: true } : { name: "Alice" };
}

describe("official v2 client pinned to 2026-07-28: input requests (MRTR) relayed by the hub", () => {
  let client: Client;
  const wire = wireLog();
  beforeAll(async () => {
    client = new Client(CLIENT_INFO, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: { elicitation: {} },
    });
    client.setRequestHandler("elicitation/create", async ({ params }) => ({
      action: "accept",
      content: answerTo(params.message),
    }));
    await client.connect(
      new StreamableHTTPClientTransport(hubUrl(), {
        fetch: wire.fetch,
        requestInit: { headers: AUTH },
      }),
    );
  });
  afterAll(async () => {
    await client.close();
  });

  it("completes an upstream tool that asks the user once", async () => {
    const result = await client.callTool({
      name: "everything__test_input_required_result_elicitation",
      arguments: {},
    });
    expect(textOf(result)).toBe("Hello, Alice!");
  });

  it("completes an upstream tool that asks in two rounds, carrying its state through the hub", async () => {
    const result = await client.callTool({
      name: "everything__test_input_required_result_multi_round",
      arguments: {},
    });
    expect(textOf(result)).toBe("Alice likes blue.");
  });

  it("asks under keys namespaced by upstream and takes the answers back under the same keys", async () => {
    wire.exchanges.length = 0;
    await client.callTool({
      name: "everything__test_input_required_result_multi_round",
      arguments: {},
    });
    const calls = wire.exchanges.filter((exchange) => methodOf(exchange) === "tools/call");
    expect(calls).toHaveLength(3);
    const [first, second, third] = calls;

    const round1 = InputRequiredReply.parse(first?.reply).result;
    expect(Object.keys(round1.inputRequests)).toEqual(["everything__step1"]);
    expect(round1.inputRequests.everything__step1).toMatchObject({
      method: "elicitation/create",
      params: { message: "Step 1: What is your name?" },
    });
    const retry1 = RetryBody.parse(second?.body).params;
    expect(retry1.inputResponses).toEqual({
      everything__step1: { action: "accept", content: { name: "Alice" } },
    });
    expect(retry1.requestState).toBe(round1.requestState);

    const round2 = InputRequiredReply.parse(second?.reply).result;
    expect(Object.keys(round2.inputRequests)).toEqual(["everything__step2"]);
    const retry2 = RetryBody.parse(third?.body).params;
    expect(Object.keys(retry2.inputResponses)).toEqual(["everything__step2"]);
    expect(retry2.requestState).toBe(round2.requestState);
    expect(third?.reply).toMatchObject({ result: { resultType: "complete" } });
  });

  it("relays the external SDK server's question and keeps its requestState out of sight", async () => {
    wire.exchanges.length = 0;
    const result = await client.callTool({ name: "ext__confirm", arguments: { what: "deploy" } });
    expect(textOf(result)).toBe("did deploy");

    const [first, retry] = wire.exchanges.filter((e) => methodOf(e) === "tools/call");
    const round = InputRequiredReply.parse(first?.reply).result;
    expect(Object.keys(round.inputRequests)).toEqual(["ext__confirm"]);
    // The hub wraps the upstream's state in its own sealed requestState.
    expect(round.requestState).not.toContain(EXT_REQUEST_STATE);
    expect(RetryBody.parse(retry?.body).params).toEqual(
      expect.objectContaining({
        inputResponses: { ext__confirm: { action: "accept", content: { ok: true } } },
        requestState: round.requestState,
      }),
    );
  });
});

describe("official v1 client (2025-11-25) with elicitation: upstream input relayed by the hub", () => {
  let client: V1Client;
  beforeAll(async () => {
    client = new V1Client(CLIENT_INFO, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async ({ params }) => ({
      action: "accept",
      content: params.message.includes("color") ? { color: "red" } : { name: "Bob" },
    }));
    await client.connect(new V1Transport(hubUrl(), { requestInit: { headers: AUTH } }));
  });
  afterAll(async () => {
    await client.close();
  });

  it("is asked through server-to-client elicitation and the upstream tool completes", async () => {
    const result = await client.callTool({
      name: "everything__test_input_required_result_multi_round",
      arguments: {},
    });
    expect(textOf(result)).toBe("Bob likes red.");
  });
});

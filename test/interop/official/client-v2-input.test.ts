import {
  Client,
  MissingRequiredClientCapabilityError,
  StreamableHTTPClientTransport,
  type FetchLike,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import {
  answerInputs,
  CLIENT_INFO,
  connectV2,
  everythingUrl,
  MODERN_MODES,
  textOf,
} from "../support/clients.ts";
import { wireLog } from "../support/wire-log.ts";

const InputRequiredReply = z.object({ result: z.object({ requestState: z.string() }) });

/** A v2 client that answers every input request (MRTR) itself, like a host with a user. */
async function connectAnswering(mode: VersionNegotiationMode, fetch: FetchLike) {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode },
    capabilities: { elicitation: {}, sampling: {}, roots: {} },
  });
  answerInputs(client);
  await client.connect(new StreamableHTTPClientTransport(everythingUrl(), { fetch }));
  return client;
}

describe.each(MODERN_MODES)("official v2 client, %s: input requests (MRTR)", (_label, mode) => {
  let client: Client;
  const wire = wireLog();
  beforeAll(async () => {
    client = await connectAnswering(mode, wire.fetch);
  });
  afterAll(async () => {
    await client.close();
  });

  it("retries with the user's answer and the echoed requestState, then completes", async () => {
    wire.exchanges.length = 0;
    const result = await client.callTool({
      name: "test_input_required_result_elicitation",
      arguments: {},
    });
    expect(textOf(result)).toBe("Hello, Ann!");

    const [first, retry] = wire.exchanges;
    expect(first?.reply).toMatchObject({
      result: {
        resultType: "input_required",
        inputRequests: { user_name: { method: "elicitation/create" } },
        requestState: expect.any(String),
      },
    });
    const state = InputRequiredReply.parse(first?.reply).result.requestState;
    expect(retry?.body).toMatchObject({
      params: {
        inputResponses: { user_name: { action: "accept" } },
        requestState: state,
      },
    });
    expect(retry?.reply).toMatchObject({ result: { resultType: "complete" } });
  });

  it("carries its state through two rounds of questions", async () => {
    const result = await client.callTool({
      name: "test_input_required_result_multi_round",
      arguments: {},
    });
    expect(textOf(result)).toBe("Ann likes teal.");
  });

  it("answers elicitation, sampling and roots asked in one round", async () => {
    const result = await client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(textOf(result)).toBe("Paris Ann (1 roots)");
  });

  it("completes a prompt that needs input first", async () => {
    const result = await client.getPrompt({ name: "test_input_required_result_prompt" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Prompt with context: release notes" } },
    ]);
  });
});

describe("official v2 client without input capabilities", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2({ pin: "2026-07-28" });
  });
  afterAll(async () => {
    await client.close();
  });

  it("is refused with -32021 instead of being asked for input it cannot give", async () => {
    const call = client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
    await expect(call).rejects.toBeInstanceOf(MissingRequiredClientCapabilityError);
    await expect(call).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { connect, McpError, type McpClient } from "../../../shared/client/index.ts";
import { everythingUrl, textOf } from "../support/clients.ts";
import { ANSWERING, wireRecorder } from "./support.ts";

describe("edgemcp client against the Worker: input rounds (MRTR)", () => {
  let client: McpClient;
  const wire = wireRecorder();
  beforeAll(async () => {
    client = await connect(everythingUrl(), { handlers: ANSWERING, onWire: wire.onWire });
    await client.listTools();
  });

  it("declares the capabilities of its handlers in every request", () => {
    expect(wire.methods()).toEqual(["server/discover", "tools/list"]);
    for (const sent of wire.sent) {
      expect(sent.params?._meta).toHaveProperty("io.modelcontextprotocol/clientCapabilities", {
        elicitation: {},
        sampling: {},
        roots: {},
      });
    }
  });

  it("answers an elicitation and retries with a new id, the answer and the echoed state", async () => {
    wire.clear();
    const { result } = await client.callTool("test_input_required_result_elicitation");
    expect(textOf(result)).toBe("Hello, Ann!");
    const [first, retry] = wire.sent;
    expect(wire.methods()).toEqual(["tools/call", "tools/call"]);
    expect(retry?.id).not.toBe(first?.id);
    expect(first?.params).not.toHaveProperty("inputResponses");
    expect(retry?.params).toMatchObject({
      name: "test_input_required_result_elicitation",
      inputResponses: { user_name: { action: "accept", content: { name: "Ann" } } },
      requestState: expect.any(String),
    });
  });

  it("carries its state through two rounds", async () => {
    wire.clear();
    const { result } = await client.callTool("test_input_required_result_multi_round");
    expect(textOf(result)).toBe("Ann likes teal.");
    expect(wire.methods()).toEqual(["tools/call", "tools/call", "tools/call"]);
    const states = wire.sent.map((sent) => sent.params?.requestState);
    expect(states[0]).toBeUndefined();
    expect(states[1]).toEqual(expect.any(String));
    expect(states[2]).toEqual(expect.any(String));
    expect(states[1]).not.toBe(states[2]);
  });

  it("answers elicitation, sampling and roots asked in one round", async () => {
    const { result } = await client.callTool("test_input_required_result_multiple_inputs");
    expect(textOf(result)).toBe("Paris Ann (1 roots)");
  });

  it("answers input a prompt needs", async () => {
    const { result } = await client.getPrompt("test_input_required_result_prompt");
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Prompt with context: release notes" } },
    ]);
  });

  it("fails when the server still asks after the round limit", async () => {
    const call = client.callTool("test_input_required_result_multi_round", undefined, {
      maxInputRounds: 1,
    });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ kind: "client", data: { maxRounds: 1 } });
  });

  it("passes the handlers the server's request and the input key", async () => {
    const seen: string[] = [];
    const asking = await connect(everythingUrl(), {
      handlers: {
        elicitation: async (params, context) => {
          seen.push(`${context.key}: ${params.message}`);
          return { action: "decline" };
        },
      },
    });
    const { result } = await asking.callTool("test_input_required_result_elicitation");
    expect(textOf(result)).toBe("No name given (decline).");
    expect(seen).toEqual(["user_name: What is your name?"]);
  });
});

describe("edgemcp client against the Worker: input capabilities", () => {
  it("refuses to declare a capability without its handler", async () => {
    await expect(
      connect(everythingUrl(), { capabilities: { elicitation: {} } }),
    ).rejects.toMatchObject({ kind: "client", data: { capability: "elicitation" } });
  });

  it("refuses a handler whose capability the given capabilities leave out", async () => {
    await expect(
      connect(everythingUrl(), { capabilities: {}, handlers: { roots: ANSWERING.roots } }),
    ).rejects.toMatchObject({ kind: "client", data: { capability: "roots" } });
  });

  it("gets -32021 from the server when it declared no input capability", async () => {
    const client = await connect(everythingUrl());
    await expect(client.callTool("test_input_required_result_elicitation")).rejects.toMatchObject({
      kind: "rpc",
      code: -32021,
      status: 400,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});

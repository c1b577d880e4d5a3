import { describe, expect, it } from "vitest";
import * as z from "zod";
import { paramsDigest } from "../../../../worker/mcp/era/modern/digest.ts";
import {
  defineServer,
  elicit,
  prompt,
  tool as defineTool,
  inputRounds,
} from "../../../../worker/mcp/index.ts";
import { handleOwner } from "../../../../worker/state/handles.ts";
import { keyringFrom } from "../../../../worker/state/keyring.ts";
import { Sealer } from "../../../../worker/state/sealer.ts";
import { mcpRequest } from "../../../support/mcp-request.ts";
import { TEST_SECRETS } from "../../../support/secrets.ts";
import { call } from "../../call.ts";
import { serve } from "../../custom-server.ts";

/** Whom the everything server binds an anonymous caller's handles to. */
const EVERYTHING = handleOwner("edgemcp-everything", "");
const ALL = { elicitation: {}, sampling: {}, roots: {} };
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });
const tool = (
  name: string,
  extra: Record<string, unknown> = {},
  options: Parameters<typeof call>[2] = {},
) => call("tools/call", { name, arguments: {}, ...extra }, { capabilities: ALL, ...options });

describe("a tool that asks for input (MRTR)", () => {
  it("answers input_required with the request and a sealed requestState, then completes on retry", async () => {
    const first = await tool("test_input_required_result_elicitation");
    expect(first.final?.result).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        user_name: {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "What is your name?",
            requestedSchema: {
              type: "object",
              properties: { name: { type: "string" } },
              required: ["name"],
            },
          },
        },
      },
      requestState: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    expect(first.final?.result).not.toHaveProperty("ttlMs");
    const second = await tool("test_input_required_result_elicitation", {
      inputResponses: { user_name: accept({ name: "Alice" }) },
      requestState: first.final?.result.requestState,
    });
    expect(second.final?.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Hello, Alice!" }],
    });
  });

  it("takes answers only with the requestState that asked, ignoring keys it did not ask for", async () => {
    // Unsolicited answers (no requestState) answer nothing: the tool asks.
    const unasked = await tool("test_input_required_result_elicitation", {
      inputResponses: { user_name: accept({ name: "Bo" }) },
    });
    expect(unasked.final?.result.resultType).toBe("input_required");
    const { final } = await tool("test_input_required_result_elicitation", {
      requestState: unasked.final?.result.requestState,
      inputResponses: { user_name: accept({ name: "Bo" }), extra: 1 },
    });
    expect(final?.result.content[0].text).toBe("Hello, Bo!");
  });

  it("asks again when the answers miss what it needs", async () => {
    const first = await tool("test_input_required_result_elicitation");
    const { final } = await tool("test_input_required_result_elicitation", {
      requestState: first.final?.result.requestState,
      inputResponses: { wrong_key: accept({}) },
    });
    expect(final?.result.resultType).toBe("input_required");
  });

  it("hands a declined elicitation to the tool", async () => {
    const first = await tool("test_input_required_result_elicitation");
    const { final } = await tool("test_input_required_result_elicitation", {
      requestState: first.final?.result.requestState,
      inputResponses: { user_name: { action: "decline" } },
    });
    expect(final?.result.content[0].text).toBe("No name given (decline).");
  });

  it("asks several kinds of input in one round", async () => {
    const { final } = await tool("test_input_required_result_multiple_inputs");
    const methods = Object.values(final?.result.inputRequests).map(
      (r) => (r as { method: string }).method,
    );
    expect(methods.sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    const done = await tool("test_input_required_result_multiple_inputs", {
      requestState: final?.result.requestState,
      inputResponses: {
        user_name: accept({ name: "Ann" }),
        greeting: { role: "assistant", content: { type: "text", text: "Hi" }, model: "m" },
        client_roots: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] },
      },
    });
    expect(done.final?.result.content[0].text).toBe("Hi Ann (2 roots)");
  });

  it("carries earlier answers across rounds in a new requestState each round", async () => {
    const r1 = await tool("test_input_required_result_multi_round");
    const r2 = await tool("test_input_required_result_multi_round", {
      requestState: r1.final?.result.requestState,
      inputResponses: { step1: accept({ name: "Alice" }) },
    });
    expect(Object.keys(r2.final?.result.inputRequests)).toEqual(["step2"]);
    expect(r2.final?.result.requestState).not.toBe(r1.final?.result.requestState);
    const r3 = await tool("test_input_required_result_multi_round", {
      requestState: r2.final?.result.requestState,
      inputResponses: { step2: accept({ color: "blue" }) },
    });
    expect(r3.final?.result.content[0].text).toBe("Alice likes blue.");
  });

  it("works for prompts too", async () => {
    const first = await call(
      "prompts/get",
      { name: "test_input_required_result_prompt" },
      { capabilities: ALL },
    );
    const second = await call(
      "prompts/get",
      {
        name: "test_input_required_result_prompt",
        requestState: first.final?.result.requestState,
        inputResponses: { user_context: accept({ context: "ctx" }) },
      },
      { capabilities: ALL },
    );
    expect(second.final?.result.messages[0].content.text).toBe("Prompt with context: ctx");
  });
});

describe("requestState cannot be forged, replayed or reused", () => {
  const firstRound = async (options: Parameters<typeof call>[2] = {}) =>
    (await tool("test_input_required_result_tampered_state", {}, options)).final?.result
      .requestState as string;

  it("refuses a tampered requestState with -32602", async () => {
    const { final } = await tool("test_input_required_result_tampered_state", {
      requestState: `${await firstRound()}-TAMPERED`,
      inputResponses: { confirm: accept({ ok: true }) },
    });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/requestState handle is not valid/),
    });
  });

  it("refuses a requestState that is not a string with -32602", async () => {
    const { final } = await tool("test_input_required_result_tampered_state", {
      requestState: 42,
    });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: "params.requestState must be the string the server sent.",
    });
  });

  it("refuses a genuinely sealed requestState that does not hold a round's state", async () => {
    const sealer = new Sealer(await keyringFrom(TEST_SECRETS.EDGEMCP_SECRET, undefined));
    const state = await sealer.seal("requestState", EVERYTHING, { m: "tools/call" }, 60_000);
    const { final } = await tool("test_input_required_result_tampered_state", {
      requestState: state,
      inputResponses: { confirm: accept({ ok: true }) },
    });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: "requestState integrity check failed.",
    });
  });

  it("refuses a requestState replayed on a different request", async () => {
    const state = await firstRound();
    const other = await tool("test_input_required_result_request_state", {
      requestState: state,
      inputResponses: { confirm: accept({ ok: true }) },
    });
    expect(other.final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/different request/),
    });
    const changedArgs = await call(
      "tools/call",
      {
        name: "test_input_required_result_tampered_state",
        arguments: { extra: 1 },
        requestState: state,
      },
      { capabilities: ALL },
    );
    expect(changedArgs.final?.error.message).toMatch(/different request/);
  });

  it("refuses a requestState from another caller", async () => {
    const state = await firstRound({ headers: { Authorization: "Bearer token-alice" } });
    const { final } = await tool(
      "test_input_required_result_tampered_state",
      { requestState: state },
      { headers: { Authorization: "Bearer token-bob" } },
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/belongs to another caller/),
    });
  });

  it("refuses an expired requestState", async () => {
    const params = { name: "test_input_required_result_elicitation", arguments: {} };
    const past = new Sealer(
      await keyringFrom(TEST_SECRETS.EDGEMCP_SECRET, undefined),
      () => Date.now() - 11 * 60_000,
    );
    const state = await past.seal(
      "requestState",
      EVERYTHING,
      { m: "tools/call", h: await paramsDigest(params), a: {}, k: ["user_name"] },
      10 * 60_000,
    );
    const { final } = await call(
      "tools/call",
      { ...params, requestState: state, inputResponses: { user_name: accept({ name: "x" }) } },
      { capabilities: ALL },
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/requestState handle expired \d+ seconds ago/),
    });
  });

  it("refuses answers of the wrong shape with -32602", async () => {
    const state = async () =>
      (await tool("test_input_required_result_elicitation")).final?.result.requestState;
    const { final } = await tool("test_input_required_result_elicitation", {
      requestState: await state(),
      inputResponses: { user_name: 12345 },
    });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/inputResponses.user_name is not a valid answer/),
    });
    const typed = await tool("test_input_required_result_elicitation", {
      requestState: await state(),
      inputResponses: { user_name: accept({ name: 5 }) },
    });
    expect(typed.final?.error.code).toBe(-32602);
    for (const inputResponses of [null, "x", ["a"]]) {
      const notObject = await tool("test_input_required_result_elicitation", { inputResponses });
      expect(notObject.final?.error).toMatchObject({
        code: -32602,
        message: "params.inputResponses must be an object keyed like inputRequests.",
      });
    }
  });
});

describe("input kinds follow the request's declared capabilities", () => {
  it("answers a request for roots the client did not declare with -32021", async () => {
    const reply = await tool(
      "test_input_required_result_list_roots",
      {},
      { capabilities: { sampling: {} } },
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it("refuses form elicitation to a client that declared only URL mode", async () => {
    const { final } = await tool(
      "test_input_required_result_elicitation",
      {},
      { capabilities: { elicitation: { url: {} } } },
    );
    expect(final?.error.code).toBe(-32021);
  });

  it("lets a tool pick a kind the client supports", async () => {
    const { final } = await tool(
      "test_input_required_result_capabilities",
      {},
      { capabilities: { sampling: {} } },
    );
    expect(
      Object.values(final?.result.inputRequests).map((r) => (r as { method: string }).method),
    ).toEqual(["sampling/createMessage"]);
  });

  it("opens a round's answers before the tool runs, and asks only when the tool does", async () => {
    // A tool with a side effect before it asks: a refused round must not reach it.
    let runs = 0;
    const server = serve(
      defineServer({
        name: "counting",
        version: "1",
        input: inputRounds,
        tools: [
          defineTool({
            name: "confirm_then_count",
            input: z.object({}),
            run: async (_args, ctx) => {
              runs += 1;
              const { ok } = await ctx.input({
                ok: elicit({ message: "Sure?", schema: z.object({ sure: z.boolean() }) }),
              });
              return ok.action;
            },
          }),
        ],
      }),
    );
    const send = (extra: Record<string, unknown>) =>
      server.send(
        mcpRequest(
          "tools/call",
          { name: "confirm_then_count", arguments: {}, ...extra },
          { capabilities: ALL },
        ),
        "tools/call",
      );
    const forged = await send({ requestState: "not-a-sealed-state", inputResponses: {} });
    expect(forged.final?.error).toMatchObject({ code: -32602 });
    expect(runs).toBe(0);

    // Without round fields, the tool runs and its first ask ends the round.
    const first = await send({});
    expect(runs).toBe(1);
    expect(first.final?.result).toMatchObject({ resultType: "input_required" });
    const requestState = first.final?.result.requestState;
    expect(typeof requestState).toBe("string");
    const second = await send({
      requestState,
      inputResponses: { ok: accept({ sure: true }) },
    });
    expect(runs).toBe(2);
    expect(second.final?.result.content).toEqual([{ type: "text", text: "accept" }]);
  });

  it("is a server bug in handlers that cannot ask (completion)", async () => {
    const server = serve(
      defineServer({
        name: "c",
        version: "1",
        input: inputRounds,
        prompts: [
          prompt({
            name: "p",
            args: z.object({ a: z.string() }),
            complete: {
              a: async (_v, _c, ctx) =>
                Object.keys(await ctx.input({ x: elicit({ message: "m", schema: z.object({}) }) })),
            },
            get: () => "",
          }),
        ],
      }),
    );
    const reply = await server.send(
      mcpRequest(
        "completion/complete",
        { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } },
        { capabilities: ALL },
      ),
      "completion/complete",
    );
    expect(reply.final?.error).toMatchObject({
      code: -32603,
      message:
        "Asking the client for input is not available in completion/complete handlers (only tools/call, prompts/get and resources/read).",
    });
  });
});

import { describe, expect, it } from "vitest";
import * as z from "zod";
import { elicit, ToolError } from "../../../../worker/mcp/index.ts";
import { legacyInput, type AnswerWait } from "../../../../worker/mcp/era/legacy/input.ts";
import { RpcError } from "../../../../shared/protocol/errors.ts";
describe("asking 2025 clients for input", () => {
  /** A wait for answers that records every wait and answers from `answers`. */
  function fakeAnswers() {
    const waits: { id: string; signal: AbortSignal }[] = [];
    const answers = new Map<string, string>();
    const port: AnswerWait = (id, signal) => {
      waits.push({ id, signal });
      const answer = answers.get(id);
      if (answer !== undefined) return Promise.resolve(answer);
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    };
    return { waits, answers, port };
  }

  const elicitation = { method: "elicitation/create", params: { message: "Name?" } };

  it("starts no wait for a request it could not send", async () => {
    const { waits, port } = fakeAnswers();
    const { relay } = legacyInput(() => false, new AbortController().signal, port);
    const failure = await relay.ask({ who: elicitation }, undefined).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({
      code: -32600,
      message: expect.stringContaining("does not accept text/event-stream"),
    });
    expect(waits).toEqual([]);
  });

  it("stops waiting for the other answers once one is refused", async () => {
    const { waits, answers, port } = fakeAnswers();
    const { relay } = legacyInput(
      (message) => {
        if (message.method === "roots/list") {
          const refusal = { jsonrpc: "2.0", id: message.id, error: { code: -1, message: "no" } };
          answers.set(String(message.id), JSON.stringify(refusal));
        }
        return true;
      },
      new AbortController().signal,
      port,
    );
    await expect(
      relay.ask({ who: elicitation, roots: { method: "roots/list" } }, undefined),
    ).rejects.toThrow("The client refused roots/list: no");
    expect(waits).toHaveLength(2);
    expect(waits.every((wait) => wait.signal.aborted)).toBe(true);
  });
});

describe("checking 2025 clients' answers", () => {
  /** A wait for answers where every request the call sends is answered with `result`. */
  function answering(result: unknown) {
    const sent: string[] = [];
    const notify = (message: { id?: unknown }) => {
      sent.push(String(message.id));
      return true;
    };
    const port: AnswerWait = async (id) => {
      expect(sent).toContain(id);
      return JSON.stringify({ jsonrpc: "2.0", id, result });
    };
    return legacyInput(notify, new AbortController().signal, port);
  }
  const who = elicit({ message: "Name?", schema: z.object({ name: z.string() }) });

  it("hands a valid answer to the handler", async () => {
    await expect(
      answering({ action: "accept", content: { name: "Ada" } }).input({ who }),
    ).resolves.toEqual({
      who: { action: "accept", content: { name: "Ada" } },
    });
  });

  it.each([
    ["an unknown action", { action: "maybe" }],
    ["content that does not fit the schema", { action: "accept", content: { name: 5 } }],
  ])("refuses %s as a tool error", async (_, result) => {
    const failure = await answering(result)
      .input({ who })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolError);
    expect(failure).toMatchObject({
      message: expect.stringMatching(/^The client's answer to elicitation\/create is not valid: ./),
    });
  });
});

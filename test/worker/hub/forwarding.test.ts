import { describe, expect, it } from "vitest";
import * as z from "zod";
import { durableObjects } from "../../../worker/durable/index.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { defineServer, elicit, tool, inputRounds } from "../../../worker/mcp/index.ts";
import { decodeSse } from "../../../shared/sse.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { type Message } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";
import { stuckHub, inProcess, send } from "./support.ts";
describe("forwarding through the hub", () => {
  it("calls the owning upstream with the original name and returns its result", async () => {
    const { final } = await send("tools/call", { name: "alpha__add", arguments: { a: 2, b: 3 } });
    expect(final?.result).toMatchObject({
      structuredContent: { sum: 5 },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "test-hub" } },
    });
  });

  it("passes the upstream's answer to invalid arguments through: an isError result naming the field", async () => {
    const { final } = await send("tools/call", { name: "alpha__add", arguments: { a: "x", b: 3 } });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringMatching(/^Invalid arguments: arguments\.a/) }],
    });
  });

  it("streams the upstream's progress", async () => {
    const reply = await send(
      "tools/call",
      { name: "alpha__count", arguments: { to: 3 } },
      { meta: { progressToken: "h" } },
    );
    expect(
      reply.messages
        .filter((m) => m.method === "notifications/progress")
        .map((m) => [m.params.progressToken, m.params.progress]),
    ).toEqual([
      ["h", 1],
      ["h", 2],
      ["h", 3],
    ]);
  });

  it("relays input the upstream asks for under namespaced keys, wrapping its requestState", async () => {
    const caps = { capabilities: { elicitation: {} } };
    const first = await send("tools/call", { name: "alpha__ask", arguments: {} }, caps);
    expect(Object.keys(first.final?.result.inputRequests)).toEqual(["alpha__who"]);
    const done = await send(
      "tools/call",
      {
        name: "alpha__ask",
        arguments: {},
        requestState: first.final?.result.requestState,
        inputResponses: { alpha__who: { action: "accept", content: { name: "Ann" } } },
      },
      caps,
    );
    expect(done.final?.result.content[0].text).toBe("hi Ann");
  });

  it("refuses a tampered hub requestState", async () => {
    const caps = { capabilities: { elicitation: {} } };
    const first = await send("tools/call", { name: "alpha__ask", arguments: {} }, caps);
    expect(first.final?.result.resultType).toBe("input_required");
    const { final } = await send(
      "tools/call",
      { name: "alpha__ask", arguments: {}, requestState: `${first.final?.result.requestState}x` },
      caps,
    );
    expect(final?.error.code).toBe(-32602);
    expect(final?.error.message).toMatch(/requestState handle is not valid/);
  });

  it("refuses pass-through input to a client that cannot answer it", async () => {
    const { final } = await send(
      "tools/call",
      { name: "alpha__ask", arguments: {} },
      { capabilities: {} },
    );
    expect(final?.error).toMatchObject({
      code: -32021,
      message: expect.stringMatching(
        /needs to send elicitation\/create, which the client did not declare/,
      ),
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it("refuses a missing required prompt argument with -32602", async () => {
    const { final } = await send("prompts/get", { name: "alpha__greet", arguments: {} });
    expect(final?.error).toMatchObject({
      code: -32602,
      message: 'Invalid arguments for prompt "alpha__greet": missing required argument "who"',
    });
  });

  it("reads resources at their own URIs, and gets and completes prompts", async () => {
    expect(
      (await send("resources/read", { uri: "alpha://readme" })).final?.result.contents[0].text,
    ).toBe("alpha readme");
    expect(
      (await send("prompts/get", { name: "alpha__greet", arguments: { who: "Ann" } })).final?.result
        .messages[0].content.text,
    ).toBe("Hello Ann");
    const completion = await send("completion/complete", {
      ref: { type: "ref/prompt", name: "alpha__greet" },
      argument: { name: "who", value: "B" },
    });
    expect(completion.final?.result.completion.values).toEqual(["Bob"]);
  });

  it("answers an unknown prefixed name with -32602", async () => {
    expect((await send("tools/call", { name: "nobody__x", arguments: {} })).final?.error.code).toBe(
      -32602,
    );
  });

  it("gives a call a clear error when the upstream stops answering", async () => {
    const slow = stuckHub("slow-hub");

    const started = Date.now();
    const { final } = await slow.send(
      mcpRequest("tools/call", { name: "stuck__add", arguments: { a: 1, b: 2 } }),
      "tools/call",
    );
    expect(final?.result).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringMatching(/Upstream "stuck" is unavailable: no answer within/) },
      ],
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("names the upstream that stops answering outside a tool call, with -32603", async () => {
    const slow = stuckHub("slow-read-hub", "resources/read");
    const { final } = await slow.send(
      mcpRequest("resources/read", { uri: "alpha://readme" }),
      "resources/read",
    );
    expect(final?.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Upstream "stuck" is unavailable: no answer within/),
      data: { upstream: "stuck" },
    });
  });

  it("gives up on a completion the upstream never answers", async () => {
    const slow = stuckHub("slow-complete-hub", "completion/complete");
    const started = Date.now();
    const { final } = await slow.send(
      mcpRequest("completion/complete", {
        ref: { type: "ref/prompt", name: "stuck__greet" },
        argument: { name: "who", value: "A" },
      }),
      "completion/complete",
    );
    expect(final?.error?.message).toMatch(/^Upstream "stuck" is unavailable: no answer within/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on a task request the upstream never answers", async () => {
    const slow = stuckHub("slow-task-hub", "tasks/get");
    const started = Date.now();
    const taskId = "stuck__abc";
    const { final } = await slow.send(
      mcpRequest(
        "tasks/get",
        { taskId },
        {
          capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
          headers: { "Mcp-Name": taskId },
        },
      ),
      "tasks/get",
    );
    expect(final?.error?.message).toMatch(/^Upstream "stuck" is unavailable: no answer within/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on an upstream that asks a 2025 client for input more than 8 times", async () => {
    const pester = defineServer({
      name: "pester",
      version: "1",
      input: inputRounds,
      tools: [
        tool({
          name: "quiz",
          description: "Asks nine questions, one at a time",
          run: async (_a, ctx) => {
            for (let i = 1; i <= 9; i++)
              await ctx.input({
                [`q${i}`]: elicit({ message: `Question ${i}?`, schema: z.object({}) }),
              });
            return "all answered";
          },
        }),
      ],
    });
    const pestered = serve(
      hubServer({
        name: "pester-hub",
        upstreams: () => [inProcess("p", pester)],
      }),
      { durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS }) },
    );
    const response = await pestered.fetch(
      legacyRequest("tools/call", { name: "p__quiz", arguments: {} }, { id: "quiz" }),
    );
    let asked = 0;
    let final: Message | undefined;
    for await (const event of decodeSse(response.body ?? new ReadableStream())) {
      const message: Message = JSON.parse(event.data);
      if (message.method === "elicitation/create") {
        asked++;
        const answer = {
          jsonrpc: "2.0",
          id: message.id,
          result: { action: "accept", content: {} },
        };
        await pestered.fetch(
          new Request("http://localhost/mcp/hub", {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              "MCP-Protocol-Version": "2025-11-25",
            },
            body: JSON.stringify(answer),
          }),
        );
      } else if (message.id === "quiz") final = message;
    }
    expect(asked).toBe(8);
    expect(final?.error).toMatchObject({
      code: -32603,
      message: 'Upstream "p" asked for input more than 8 times.',
    });
  });
});

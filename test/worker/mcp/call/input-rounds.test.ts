import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  DefinitionError,
  defineServer,
  elicit,
  inputRounds,
  prompt,
  tool,
  type RequestLog,
  type ServerDefinition,
} from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

const ELICIT = { elicitation: {} };
const IMPORT_HINT = 'import { inputRounds } from "edgemcp/server"';

const asks = tool({
  name: "ask",
  description: "Asks for a name",
  run: async (_args, ctx) => {
    const { who } = await ctx.input({
      who: elicit({ message: "Name?", schema: z.object({ name: z.string() }) }),
    });
    return who.action;
  },
});

const relays = tool({
  name: "relay",
  description: "Relays a request",
  run: async (_args, ctx) => {
    await ctx.relay.ask({ q: { method: "roots/list" } }, undefined);
    return "relayed";
  },
});

const plain = tool({ name: "plain", description: "Asks nothing", run: () => "plain" });

const askingPrompt = prompt({
  name: "topic",
  description: "Asks for a topic",
  get: async (_args, ctx) => {
    await ctx.input({ t: elicit({ message: "Topic?", schema: z.object({}) }) });
    return "";
  },
});

/** A server without input rounds, and the log entries of its requests. */
function withoutRounds(extra: Partial<ServerDefinition> = {}) {
  const logs: RequestLog[] = [];
  const server = serve(
    defineServer({
      name: "no-rounds",
      version: "1",
      tools: [asks, relays, plain],
      prompts: [askingPrompt],
      ...extra,
    }),
    { log: (entry) => logs.push(entry) },
  );
  return { server, logs };
}

const callTool = (name: string, extra: Record<string, unknown> = {}) =>
  mcpRequest(
    "tools/call",
    { name, arguments: {}, ...extra },
    { capabilities: ELICIT, server: "no-rounds" },
  );

describe("a server without input rounds", () => {
  it("fails a tool that asks as a handler bug, logging which import to add", async () => {
    const { server, logs } = withoutRounds();
    const reply = await server.send(callTool("ask"), "tools/call");
    const { result } = reply.final ?? {};
    expect(result.isError).toBe(true);
    const [entry] = logs;
    expect(entry?.level).toBe("error");
    // The client learns nothing of the server's configuration, only where to look in the log.
    expect(result.content[0].text).toContain(`correlation id ${entry?.correlationId}`);
    expect(result.content[0].text).not.toContain("inputRounds");
    expect(entry?.error).toContain(IMPORT_HINT);
    expect(entry?.error).toContain("input: inputRounds");
  });

  it("fails ctx.relay.ask the same way", async () => {
    const { server, logs } = withoutRounds();
    const reply = await server.send(callTool("relay"), "tools/call");
    expect(reply.final?.result.isError).toBe(true);
    expect(logs[0]?.error).toContain(IMPORT_HINT);
  });

  it("answers a prompt that asks with -32603 and the correlation id", async () => {
    const { server, logs } = withoutRounds();
    const request = mcpRequest(
      "prompts/get",
      { name: "topic" },
      { capabilities: ELICIT, server: "no-rounds" },
    );
    const reply = await server.send(request, "prompts/get");
    const correlationId = logs[0]?.correlationId;
    expect(reply.final?.error).toEqual({
      code: -32603,
      message: `Internal error: the server failed while handling this request (correlation id ${correlationId}).`,
      data: { correlationId },
    });
    expect(logs[0]?.error).toContain(IMPORT_HINT);
  });

  it("fails a 2025 client's tool call that asks the same way", async () => {
    const { server, logs } = withoutRounds();
    const request = legacyRequest(
      "tools/call",
      { name: "ask", arguments: {} },
      { server: "no-rounds" },
    );
    const reply = await server.send(request, "tools/call", "2025");
    expect(reply.final?.result.isError).toBe(true);
    expect(reply.messages).toHaveLength(1);
    expect(logs[0]?.era).toBe("legacy");
    expect(logs[0]?.error).toContain(IMPORT_HINT);
  });

  it("refuses a requestState with -32602: it issued none", async () => {
    const { server, logs } = withoutRounds();
    const reply = await server.send(
      callTool("plain", { requestState: "anything", inputResponses: { who: {} } }),
      "tools/call",
    );
    expect(reply.status).toBe(200);
    expect(reply.final?.error).toEqual({
      code: -32602,
      message:
        "This server asks its clients for no input, so it issued no requestState: send the request without requestState.",
    });
    expect(logs[0]?.level).toBe("warn");
  });

  it("ignores inputResponses without a requestState, as answers to nothing", async () => {
    const { server } = withoutRounds();
    const reply = await server.send(
      callTool("plain", { inputResponses: { who: { action: "accept" } } }),
      "tools/call",
    );
    expect(reply.final?.result.content).toEqual([{ type: "text", text: "plain" }]);
  });

  it("is refused at definition when a tool requires a kind of input", () => {
    const needs = (requires: Record<string, object>) => () =>
      defineServer({
        name: "needs",
        version: "1",
        tools: [tool({ name: "t", requires, run: () => "" })],
      });
    for (const kind of ["elicitation", "sampling", "roots"]) {
      expect(needs({ [kind]: {} })).toThrow(DefinitionError);
      expect(needs({ [kind]: {} })).toThrow(IMPORT_HINT);
    }
    // A capability that is not a kind of input is no reason to ask.
    expect(needs({ extensions: { "io.example/x": {} } })).not.toThrow();
  });
});

describe("a server with input rounds", () => {
  it("asks, where the same tool without them fails", async () => {
    const { server } = withoutRounds({ input: inputRounds });
    const reply = await server.send(callTool("ask"), "tools/call");
    expect(reply.final?.result).toMatchObject({ resultType: "input_required" });
    expect(reply.final?.result.inputRequests.who.method).toBe("elicitation/create");
  });

  it("takes a tool that requires a kind of input", () => {
    const define = () =>
      defineServer({
        name: "needs",
        version: "1",
        input: inputRounds,
        tools: [tool({ name: "t", requires: { sampling: {} }, run: () => "" })],
      });
    expect(define).not.toThrow();
  });
});

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { parseMessage } from "../../../shared/jsonrpc.ts";
import {
  defineServer,
  serveMessage,
  tool,
  type Framed,
  type Runtime,
} from "../../../worker/mcp/index.ts";
import { mcpRequest, modernBody } from "../../support/mcp-request.ts";
import { readReply } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";

const server = defineServer({
  name: "framed",
  version: "1",
  tools: [
    tool({
      name: "add",
      input: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => String(a + b),
    }),
  ],
});

async function runtime(): Promise<Runtime> {
  return {
    env,
    waitUntil: () => {},
    coordination: {},
    local: true,
    settings: {
      maxBodyBytes: 1024,
      bodyDeadlineMs: 1000,
      keepAliveMs: 0,
      sseBufferBytes: 65536,
      listenMaxMs: 1000,
    },
  };
}

/** A message as a proxy holds it after framing: parsed, with the request's headers. */
function framed(method: string, params: Record<string, unknown>): Framed {
  const headers = mcpRequest(method, params, { server: "framed" }).headers;
  return {
    message: parseMessage(modernBody(method, params, { id: 7 })),
    headers,
    signal: new AbortController().signal,
    mode: "json-or-sse",
    caller: undefined,
  };
}

describe("the pipeline after framing (the proxy entry point)", () => {
  it("answers a parsed message as the endpoint answers the same POST", async () => {
    const params = { name: "add", arguments: { a: 2, b: 3 } };
    const direct = await readReply(
      await serveMessage(server, framed("tools/call", params), await runtime()),
      "tools/call",
    );
    const overHttp = await serve(server).send(
      mcpRequest("tools/call", params, { id: 7, server: "framed" }),
      "tools/call",
    );
    expect(direct.status).toBe(200);
    expect(direct.final).toEqual(overHttp.final);
    expect(direct.final?.result.content).toEqual([{ type: "text", text: "5" }]);
  });

  it("checks the routing headers it is given against the message", async () => {
    const message = framed("tools/call", { name: "add", arguments: { a: 1, b: 1 } });
    message.headers.set("Mcp-Name", "other");
    const reply = await readReply(
      await serveMessage(server, message, await runtime()),
      "tools/call",
    );
    expect(reply.status).toBe(400);
    expect(reply.final?.error.code).toBe(-32020);
  });

  it("accepts a notification with 202 and no body", async () => {
    const notification: Framed = {
      ...framed("tools/list", {}),
      message: {
        kind: "notification",
        message: { jsonrpc: "2.0", method: "notifications/initialized" },
      },
    };
    const response = await serveMessage(server, notification, await runtime());
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });
});

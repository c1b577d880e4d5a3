// Requests to the cluster as a client sends them, and what came back: the messages (each checked
// against the official schema of its era) and which Worker process served them.
import { decodeSse } from "../../shared/sse.ts";
import { modernBody } from "../support/mcp-request.ts";
import { assertWireValid } from "../support/wire-schema.ts";
import { SERVED_BY } from "./front.ts";

/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read in assertions */
export type Message = Record<string, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

export type Sent = { response: Response; servedBy: number; method: string };

/** A 2026-07-28 request through `base` (the front, or one process's own port). */
export async function send(
  base: string,
  server: string,
  method: string,
  params: Record<string, unknown>,
  options: {
    token?: string;
    capabilities?: Record<string, unknown>;
    meta?: Record<string, unknown>;
    signal?: AbortSignal;
  } = {},
): Promise<Sent> {
  const name = [params.name, params.uri, params.taskId].find((v) => typeof v === "string");
  const response = await fetch(`${base}/mcp/${server}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify(
      modernBody(method, params, {
        ...(options.capabilities ? { capabilities: options.capabilities } : {}),
        ...(options.meta ? { meta: options.meta } : {}),
      }),
    ),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { response, servedBy: Number(response.headers.get(SERVED_BY)), method };
}

/** Every message of a reply (JSON or a whole SSE stream), each checked against the schema. */
export async function messagesOf(sent: Sent, era: "2026" | "2025" = "2026"): Promise<Message[]> {
  const { response } = sent;
  const messages: Message[] = [];
  if ((response.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) {
    for await (const event of decodeSse(response.body as ReadableStream<Uint8Array>))
      messages.push(JSON.parse(event.data) as Message);
  } else messages.push((await response.json()) as Message);
  for (const message of messages) assertWireValid(message, sent.method, era);
  return messages;
}

/** The last message of a reply (its response). */
export async function finalOf(sent: Sent): Promise<Message> {
  return (await messagesOf(sent)).at(-1) as Message;
}

/** Reads an open SSE stream message by message, each checked; fails after `ms` without one. */
export function reader(sent: Sent, era: "2026" | "2025" = "2026") {
  const events = decodeSse(sent.response.body as ReadableStream<Uint8Array>);
  return {
    async next(ms = 10_000): Promise<Message | undefined> {
      let timer: NodeJS.Timeout | undefined;
      const event = await Promise.race([
        events.next(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no message in ${ms} ms`)), ms);
        }),
      ]).finally(() => clearTimeout(timer));
      if (event.done) return undefined;
      const message = JSON.parse(event.value.data) as Message;
      assertWireValid(message, sent.method, era);
      return message;
    },
    close: () => events.return(undefined),
  };
}

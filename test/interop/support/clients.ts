import {
  Client,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type FetchLike,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { inject } from "vitest";
import * as z from "zod";

export const CLIENT_INFO = { name: "edgemcp-interop", version: "1.0.0" };

/** The two ways a v2 client reaches 2026-07-28: pinned, or probing with server/discover. */
export const MODERN_MODES = [
  ["pinned to 2026-07-28", { pin: "2026-07-28" }],
  ["auto", "auto"],
] as const satisfies ReadonlyArray<readonly [string, VersionNegotiationMode]>;

/** A server's endpoint on the Worker started by the global setup. */
export function serverUrl(name = "everything"): URL {
  return new URL(`${inject("workerUrl")}/mcp/${name}`);
}

/** The example server's endpoint on the Worker started by the global setup. */
export function everythingUrl(): URL {
  return serverUrl("everything");
}

type V2Options = { fetch?: FetchLike; capabilities?: ClientCapabilities; server?: string };

/** A connected @modelcontextprotocol/client (v2) in a negotiation mode (none: its default, legacy). */
export async function connectV2(
  mode: VersionNegotiationMode | undefined,
  { fetch, capabilities = {}, server }: V2Options = {},
): Promise<Client> {
  const client = new Client(CLIENT_INFO, {
    capabilities,
    ...(mode ? { versionNegotiation: { mode } } : {}),
  });
  await client.connect(
    new StreamableHTTPClientTransport(serverUrl(server), fetch ? { fetch } : {}),
  );
  return client;
}

/** A connected @modelcontextprotocol/sdk (v1) client, its transport, and what it reported to onerror. */
export async function connectV1(server?: string): Promise<{
  client: V1Client;
  transport: V1Transport;
  errors: Error[];
}> {
  const client = new V1Client(CLIENT_INFO, { capabilities: {} });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  const transport = new V1Transport(serverUrl(server));
  await client.connect(transport);
  return { client, transport, errors };
}

const TextBlocksSchema = z.object({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});

/**
 * Makes a v2 client answer every input request (elicitation, sampling, roots) itself, like a
 * host with a user: a color when asked for one, otherwise a name, a context and consent.
 */
export function answerInputs(client: Client): void {
  client.setRequestHandler("elicitation/create", async ({ params }) => {
    const content: Record<string, string | boolean> = params.message.includes("color")
      ? { color: "teal" }
      : { name: "Ann", context: "release notes", ok: true };
    return { action: "accept", content };
  });
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
  }));
  client.setRequestHandler("roots/list", async () => ({
    roots: [{ uri: "file:///project", name: "project" }],
  }));
}

/** The text blocks of a tool result or prompt message list, joined by newlines. */
export function textOf(result: unknown): string {
  return TextBlocksSchema.parse(result)
    .content.flatMap((block) => (block.type === "text" && block.text ? [block.text] : []))
    .join("\n");
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A label no other test (or earlier run) has used, for test_slow_counter/test_abort_status. */
export function uniqueLabel(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}

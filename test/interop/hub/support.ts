import {
  Client,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type FetchLike,
} from "@modelcontextprotocol/client";
import { inject } from "vitest";
import { CLIENT_INFO, delay, textOf } from "../support/clients.ts";

/**
 * A test token (test/support/secrets.ts): the hub lists and calls the tools that change things
 * (ops__run_build, notes__create_note) only for callers with one.
 */
export const AUTH = { Authorization: "Bearer token-alice" };

/** The hub's endpoint on the Worker started by the global setup. */
export function hubUrl(): URL {
  return new URL(`${inject("workerUrl")}/mcp`);
}

/** The external SDK-built server the hub aggregates as "ext", reached directly. */
export function sdkServerUrl(): URL {
  return new URL(inject("sdkServerUrl"));
}

type Options = { fetch?: FetchLike; capabilities?: ClientCapabilities };

/** A @modelcontextprotocol/client (v2) pinned to 2026-07-28, connected to `url` (the hub by default). */
export async function connectPinned(
  url: URL = hubUrl(),
  { fetch, capabilities = {} }: Options = {},
): Promise<Client> {
  const client = new Client(CLIENT_INFO, {
    capabilities,
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const requestInit = { headers: AUTH };
  await client.connect(
    new StreamableHTTPClientTransport(url, fetch ? { fetch, requestInit } : { requestInit }),
  );
  return client;
}

/** Any client that calls tools: the v2 SDK's, or the v1 SDK's 2025 client. */
type ToolCaller = {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
};

/**
 * Asks a server's abort-status tool about `label` until it reports an abort (a cancelled call
 * stops on its own schedule), and returns the last status.
 */
export async function abortStatus(
  client: ToolCaller,
  tool: string,
  label: string,
  attempts = 40,
): Promise<string> {
  let status = "";
  for (let attempt = 0; attempt < attempts && !status.startsWith("aborted"); attempt++) {
    if (attempt > 0) await delay(100);
    status = textOf(await client.callTool({ name: tool, arguments: { label } }));
  }
  return status;
}

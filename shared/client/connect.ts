import { MODERN_VERSION } from "../protocol/versions.ts";
import { storeHinted } from "./cache.ts";
import { resolveCapabilities } from "./capabilities.ts";
import { McpClient } from "./client.ts";
import { Connection } from "./connection.ts";
import { McpError } from "./errors.ts";
import { ClientCore } from "./core.ts";
import { negotiate } from "./era/negotiate.ts";
import type { ClientOptions } from "./options.ts";

const DEFAULT_CLIENT_INFO = { name: "edgemcp-client", version: "0.1.0" };

/**
 * Connects to an MCP endpoint: probes with `server/discover` and, unless the answer is a
 * recognised 2026 reply, falls back to the 2025 `initialize` handshake. The client keeps the
 * era it found for every later request.
 */
export async function connect(url: string | URL, options: ClientOptions = {}): Promise<McpClient> {
  const handlers = options.handlers ?? {};
  const { maxReplyBytes } = options;
  if (maxReplyBytes !== undefined && !(Number.isSafeInteger(maxReplyBytes) && maxReplyBytes > 0)) {
    throw new McpError(
      `maxReplyBytes must be a positive whole number of bytes, not ${maxReplyBytes}.`,
      {
        kind: "client",
      },
    );
  }
  const conn = new Connection({
    url: String(url),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    send: options.send,
    headers: { ...options.headers },
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    capabilities: resolveCapabilities(options.capabilities, handlers),
    handlers,
    onWire: options.onWire,
    ...(maxReplyBytes === undefined ? {} : { maxReplyBytes }),
  });
  const settings = {
    maxInputRounds: options.maxInputRounds ?? 8,
    maxPages: options.maxPages ?? 64,
    logLevel: options.logLevel,
    warn: options.onWarning ?? (() => {}),
  };
  const versions = options.versions ?? [MODERN_VERSION];
  const negotiated = await negotiate(conn, versions, options.handshake, options.signal);
  const core = new ClientCore(conn, negotiated.era, settings, negotiated.description);
  const { discovered } = negotiated;
  if (discovered) storeHinted(core.caches.discover, "", conn.authKey(), discovered);
  const client = new McpClient(core);
  if (options.backgroundStream !== false) {
    await client.openBackground({
      onNotification: options.onNotification ?? (() => {}),
      onState: options.onBackgroundState ?? (() => {}),
    });
  }
  return client;
}

import { MODERN_VERSION } from "../protocol/versions.ts";
import { resolveCapabilities } from "./capabilities.ts";
import { storeHinted } from "./cached.ts";
import { McpClient } from "./client.ts";
import { Connection } from "./connection.ts";
import { ClientCore } from "./core.ts";
import { describeDiscovered, describeInitialized } from "./description.ts";
import { probe } from "./era.ts";
import { initialize } from "./legacy-handshake.ts";
import type { ClientOptions } from "./options.ts";

const DEFAULT_CLIENT_INFO = { name: "edgemcp-client", version: "0.1.0" };

/**
 * Connects to an MCP endpoint: probes with `server/discover` and, unless the answer is a
 * recognised 2026 reply, falls back to the 2025 `initialize` handshake. The client keeps the
 * era it found for every later request.
 */
export async function connect(url: string | URL, options: ClientOptions = {}): Promise<McpClient> {
  const handlers = options.handlers ?? {};
  const conn = new Connection({
    url: String(url),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    headers: { ...options.headers },
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    capabilities: resolveCapabilities(options.capabilities, handlers),
    handlers,
    onWire: options.onWire,
  });
  const settings = {
    maxInputRounds: options.maxInputRounds ?? 8,
    maxPages: options.maxPages ?? 64,
    logLevel: options.logLevel,
    warn: options.onWarning ?? (() => {}),
  };
  const outcome =
    options.handshake === "initialize"
      ? { era: "legacy" as const }
      : await probe(conn, options.versions ?? [MODERN_VERSION], options.signal);
  if (outcome.era === "legacy") {
    const result = await initialize(conn, options.signal);
    return new McpClient(new ClientCore(conn, settings, describeInitialized(result)));
  }
  conn.protocolVersion = outcome.version;
  const core = new ClientCore(
    conn,
    settings,
    describeDiscovered(outcome.discover, outcome.version),
  );
  storeHinted(core.caches.discover, "", conn.authKey(), outcome.discover);
  return new McpClient(core);
}

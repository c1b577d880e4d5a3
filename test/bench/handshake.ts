import { readReply } from "./reply.ts";
import { send } from "./serve.ts";
import {
  benchRequest,
  initializedNotification,
  initializeRequest,
  legacyRequest,
  type BenchRequest,
  type RequestSpec,
} from "./wire.ts";

/** What a 2025 client keeps from `initialize`: the negotiated version and the session, if any. */
export type Session = { protocolVersion: string; sessionId: string | undefined };

/**
 * The 2025 handshake a desktop client makes once: `initialize`, then `notifications/initialized`
 * with the negotiated version and the session the server gave (edgemcp and the SDK's stateless
 * handler give none; tmcp keeps one in memory).
 */
export async function handshake(url: string): Promise<Session> {
  const response = await send(url, initializeRequest());
  const sessionId = response.headers.get("Mcp-Session-Id") ?? undefined;
  const reply = await readReply(response);
  if (reply.status !== 200) throw new Error(`initialize: HTTP ${reply.status} ${reply.text}`);
  const version: unknown = reply.final?.result?.protocolVersion;
  if (typeof version !== "string")
    throw new Error(`initialize: no protocolVersion in ${reply.text}`);
  const session: Session = { protocolVersion: version, sessionId };
  const answer = await send(url, initializedNotification(version, sessionId));
  await answer.arrayBuffer();
  if (answer.status !== 202 && answer.status !== 200)
    throw new Error(`notifications/initialized: HTTP ${answer.status}`);
  return session;
}

/** The request a server gets in a scenario of an era (after the handshake for 2025). */
export async function requestFor(
  era: "2026" | "2025",
  spec: RequestSpec,
  url: string,
  mcp: boolean,
): Promise<BenchRequest> {
  if (era === "2026") return benchRequest(spec);
  if (!mcp) return legacyRequest(spec);
  const { protocolVersion, sessionId } = await handshake(url);
  return legacyRequest(spec, protocolVersion, sessionId);
}

/** Any request every server answers with a 2xx, to learn that it is up. */
export function probeFor(era: "2026" | "2025", spec: RequestSpec): BenchRequest {
  return era === "2026" ? benchRequest(spec) : initializeRequest();
}

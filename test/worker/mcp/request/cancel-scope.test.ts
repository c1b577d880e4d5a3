import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeSse } from "../../../../shared/sse.ts";
import { MAX_SESSION_ID_LENGTH } from "../../../../worker/mcp/era/legacy/session.ts";
import { eventually } from "../../../support/eventually.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { call, send } from "../../call.ts";

// Two anonymous callers behind one address (an office NAT), as Cloudflare reports it.
const OFFICE = "198.51.100.23";

type Options = {
  id?: string | number;
  sessionId?: string;
  notification?: boolean;
  /** A bearer token: the caller is then its subject, whatever its address. */
  token?: string;
};

/** A 2025 request from the office, with the session id `initialize` gave (or none). */
function legacy(method: string, params: Record<string, unknown>, options: Options = {}) {
  const headers: Record<string, string> = { "CF-Connecting-IP": OFFICE };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.sessionId !== undefined) headers["Mcp-Session-Id"] = options.sessionId;
  return legacyRequest(method, params, {
    ...(options.id === undefined ? {} : { id: options.id }),
    ...(options.notification ? { notification: true } : {}),
    headers,
  });
}

/** A 2025 client's handshake: the session id its `initialize` reply carries. */
async function handshake(token?: string): Promise<string> {
  const headers: Record<string, string> = { "CF-Connecting-IP": OFFICE };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  const reply = await send(
    legacyRequest(
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
      { version: null, headers },
    ),
    "initialize",
    "2025",
  );
  const sessionId = reply.headers.get("Mcp-Session-Id");
  if (sessionId === null) throw new Error("initialize gave no session id");
  return sessionId;
}

/**
 * Starts a long test_slow_counter call (request id 1, as every client's first call is) and
 * waits for its first progress message, so it is surely running.
 */
async function slowCall(label: string, sessionId: string | undefined, token?: string) {
  const response = await exports.default.fetch(
    legacy(
      "tools/call",
      {
        name: "test_slow_counter",
        arguments: { steps: 200, delayMs: 25, label },
        _meta: { progressToken: "p" },
      },
      {
        id: 1,
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(token === undefined ? {} : { token }),
      },
    ),
  );
  const events = decodeSse(response.body!);
  expect(JSON.parse((await events.next()).value!.data).method).toBe("notifications/progress");
  return events;
}

/** Cancels request id 1 from the office, as a 2025 client does: a POST answered 202. */
async function cancel(sessionId: string | undefined, token?: string) {
  const response = await exports.default.fetch(
    legacy(
      "notifications/cancelled",
      { requestId: 1, reason: "stop" },
      {
        notification: true,
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(token === undefined ? {} : { token }),
      },
    ),
  );
  expect(response.status).toBe(202);
}

async function abortStatus(label: string): Promise<string> {
  const { final } = await call("tools/call", { name: "test_abort_status", arguments: { label } });
  return final?.result.content[0].text;
}

/** Whether the call labelled `label` is still running a while after a cancel that missed it. */
async function stillRunning(label: string): Promise<boolean> {
  // Long past the moment a matching cancel lands (the watch starts after 100 ms).
  await new Promise((resolve) => setTimeout(resolve, 600));
  return (await abortStatus(label)) === `not aborted: ${label}`;
}

function aborted(label: string): Promise<string> {
  return eventually(
    async () => {
      const status = await abortStatus(label);
      return status.startsWith("aborted") ? status : undefined;
    },
    { intervalMs: 20, what: `an abort of ${label}` },
  );
}

describe("2025 session ids", () => {
  it("are minted on each 2025 initialize: 128 random bits, base64url, a dot, what it declared", async () => {
    const first = await handshake();
    const second = await handshake();
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}\.$/);
    expect(second).toMatch(/^[A-Za-z0-9_-]{22}\.$/);
    expect(second).not.toBe(first);
  });

  it("are never minted for a 2026 request, initialize included", async () => {
    const initialize = await send(
      mcpRequest("initialize", { protocolVersion: "2025-11-25", capabilities: {} }),
      "initialize",
    );
    expect(initialize.final?.error).toBeDefined();
    expect(initialize.headers.get("Mcp-Session-Id")).toBeNull();
    const discover = await send(mcpRequest("server/discover"), "server/discover");
    expect(discover.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("are not minted for a failed initialize", async () => {
    const reply = await send(
      legacyRequest("initialize", {}, { version: null }),
      "initialize",
      "2025",
    );
    expect(reply.final?.error.code).toBe(-32602);
    expect(reply.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("are accepted when the Worker never saw them (it keeps none)", async () => {
    const reply = await send(
      legacy("ping", {}, { sessionId: "some-gateway's-id:42" }),
      "ping",
      "2025",
    );
    expect(reply.final?.result).toEqual({});
    expect(reply.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it.each([
    ["longer than the bound", "x".repeat(MAX_SESSION_ID_LENGTH + 1)],
    ["with a space in it", "abc def"],
  ])("refuse one %s with 400, on requests and notifications", async (_what, sessionId) => {
    const reply = await send(legacy("ping", {}, { sessionId }), "ping", "2025");
    expect(reply.status).toBe(400);
    expect(reply.final?.error.message).toBe(
      `Mcp-Session-Id must be 1 to ${MAX_SESSION_ID_LENGTH} visible ASCII characters: send the id the initialize response gave, or none.`,
    );
    const response = await exports.default.fetch(
      legacy("notifications/cancelled", { requestId: 1 }, { notification: true, sessionId }),
    );
    expect(response.status).toBe(400);
  });

  it("take one at the bound", async () => {
    const sessionId = "x".repeat(MAX_SESSION_ID_LENGTH);
    const reply = await send(legacy("ping", {}, { sessionId }), "ping", "2025");
    expect(reply.final?.result).toEqual({});
  });

  it("are ignored on 2026 requests, however malformed", async () => {
    const reply = await send(
      mcpRequest("tools/list", {}, { headers: { "Mcp-Session-Id": "y".repeat(1000) } }),
      "tools/list",
    );
    expect(reply.status).toBe(200);
  });
});

describe("an anonymous 2025 caller cancels only its own calls", () => {
  it("across callers behind one address: B's cancel misses A's call, A's own stops it", async () => {
    const a = await handshake();
    const b = await handshake();
    const label = `nat-${crypto.randomUUID()}`;
    const events = await slowCall(label, a);
    await cancel(b);
    expect(await stillRunning(label)).toBe(true);
    await cancel(a);
    expect(await aborted(label)).toMatch(new RegExp(`^aborted: ${label} at step \\d+`));
    await events.return(undefined);
  });

  it("a cancel without a session id reaches nothing: a call with one, nor a call without", async () => {
    const withId = `with-id-${crypto.randomUUID()}`;
    const withoutId = `without-id-${crypto.randomUUID()}`;
    const first = await slowCall(withId, await handshake());
    const second = await slowCall(withoutId, undefined);
    await cancel(undefined);
    expect(await stillRunning(withId)).toBe(true);
    expect(await abortStatus(withoutId)).toBe(`not aborted: ${withoutId}`);
    await first.return(undefined);
    await second.return(undefined);
  });
});

describe("an authenticated 2025 caller's cancellations stay in their session", () => {
  const ALICE = "token-alice";

  it("two sessions of one subject: A's cancel misses B's call of the same id, B's own stops it", async () => {
    const a = await handshake(ALICE);
    const b = await handshake(ALICE);
    const label = `two-windows-${crypto.randomUUID()}`;
    const events = await slowCall(label, b, ALICE);
    await cancel(a, ALICE);
    expect(await stillRunning(label)).toBe(true);
    await cancel(b, ALICE);
    expect(await aborted(label)).toMatch(new RegExp(`^aborted: ${label} at step \\d+`));
    await events.return(undefined);
  });

  it("a cancel that stopped its call is spent: a later call reusing the id runs, and its own cancel stops it", async () => {
    const session = await handshake(ALICE);
    const first = `first-${crypto.randomUUID()}`;
    const firstEvents = await slowCall(first, session, ALICE);
    await cancel(session, ALICE);
    await aborted(first);
    await firstEvents.return(undefined);
    const second = `second-${crypto.randomUUID()}`;
    const secondEvents = await slowCall(second, session, ALICE);
    expect(await stillRunning(second)).toBe(true);
    await cancel(session, ALICE);
    expect(await aborted(second)).toMatch(new RegExp(`^aborted: ${second} at step \\d+`));
    await secondEvents.return(undefined);
  });

  it("a later session's cancel of an id another session used and cancelled reaches its own call", async () => {
    const earlier = await handshake(ALICE);
    const first = `earlier-${crypto.randomUUID()}`;
    const firstEvents = await slowCall(first, earlier, ALICE);
    await cancel(earlier, ALICE);
    await aborted(first);
    await firstEvents.return(undefined);
    const later = await handshake(ALICE);
    const second = `later-${crypto.randomUUID()}`;
    const secondEvents = await slowCall(second, later, ALICE);
    expect(await stillRunning(second)).toBe(true);
    await cancel(later, ALICE);
    expect(await aborted(second)).toMatch(new RegExp(`^aborted: ${second} at step \\d+`));
    await secondEvents.return(undefined);
  });

  it("a cancel that arrives before its call is watched still stops it", async () => {
    const session = await handshake(ALICE);
    const label = `early-${crypto.randomUUID()}`;
    const response = exports.default.fetch(
      legacy(
        "tools/call",
        { name: "test_slow_counter", arguments: { steps: 200, delayMs: 25, label } },
        { id: 1, sessionId: session, token: ALICE },
      ),
    );
    await cancel(session, ALICE);
    expect(await aborted(label)).toMatch(new RegExp(`^aborted: ${label} at step \\d+`));
    await (await response).body?.cancel();
  });
});

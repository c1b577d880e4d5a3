import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { expect } from "vitest";
import { decodeSse } from "../../../shared/sse.ts";
import { ErrorCode } from "../../../shared/protocol/errors.ts";
import { encodeHeaderValue } from "../../../shared/protocol/headers.ts";
import { MetaKey } from "../../../shared/protocol/meta.ts";
import { MODERN_VERSION } from "../../../shared/protocol/versions.ts";

/** Every property runs with a fixed seed: a failure is the same failure on every machine. */
export const SEED = 20261201;

/** The statuses a refusal may have; anything else (5xx above all) is a bug. */
const ALLOWED = new Set([200, 202, 400, 401, 403, 404, 405, 406, 408, 413, 415, 429]);
/** JSON-RPC error codes a refusal may carry; -32603 (internal error) means the server broke. */
const CODES = new Set<number>(
  // A numeric enum maps names to codes and codes back to names: only the codes count.
  Object.values(ErrorCode).filter(
    (code) => typeof code === "number" && code !== ErrorCode.InternalError,
  ),
);
/** How long one answer may take before it counts as a hang. */
const HANG_MS = 10_000;

/** Requests sent, per property, for the report. */
export const counts = new Map<string, number>();

/** The endpoints of the Worker under test. */
export const SERVERS = ["", "/everything", "/notes", "/analytics", "/ops"] as const;

/** A 2026-07-28 POST with headers mirroring `body` where it has what they mirror. */
export function modernPost(
  body: unknown,
  path = "/everything",
  headers: Record<string, string> = {},
): Request {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const method = typeof record.method === "string" ? record.method : "tools/list";
  const params = (typeof record.params === "object" && record.params) || {};
  const name = Reflect.get(params, method === "resources/read" ? "uri" : "name");
  return new Request(`http://localhost/mcp${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": MODERN_VERSION,
      "Mcp-Method": safeHeader(method),
      ...(typeof name === "string" ? { "Mcp-Name": safeHeader(encodeHeaderValue(name)) } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A 2025-era POST of `body`. */
export function legacyPost(body: unknown, path = "/everything"): Request {
  return new Request(`http://localhost/mcp${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * A header value a client can send: no NUL, CR or LF (fetch refuses them), ASCII only (workerd
 * would send anything above as UTF-8, which is then not what was generated).
 */
export function safeHeader(value: string): string {
  return value.replace(/[\0\r\n]|[^\0-\u007f]/g, "?");
}

/** The standard `_meta` envelope of a 2026-07-28 request. */
export const META = {
  [MetaKey.protocolVersion]: MODERN_VERSION,
  [MetaKey.clientInfo]: { name: "fuzz", version: "1" },
  [MetaKey.clientCapabilities]: {},
};

/**
 * Sends one request to the Worker and checks the answer as a client would: a status from the
 * refusals MCP uses (never 5xx), within `HANG_MS`, and a body of well-formed JSON-RPC messages
 * whose errors carry a known code and a message without a stack trace.
 */
export async function answerOf(
  property: string,
  request: Request,
  firstOnly = false,
): Promise<Answer> {
  counts.set(property, (counts.get(property) ?? 0) + 1);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([read(request, firstOnly), hang]);
  } finally {
    clearTimeout(timer);
  }
}

export type Answer = { status: number; messages: Record<string, unknown>[] };

/**
 * Like `answerOf`, for a request that may open a stream meant to stay open (a listen): checks
 * the status and the first message, then closes the stream as a client would.
 */
export async function firstOf(property: string, request: Request): Promise<Answer> {
  return answerOf(property, request, true);
}

async function read(request: Request, firstOnly = false): Promise<Answer> {
  const response = await exports.default.fetch(request);
  const type = response.headers.get("Content-Type") ?? "";
  const messages: Record<string, unknown>[] = [];
  if (type.startsWith("text/event-stream") && response.body) {
    for await (const event of decodeSse(response.body)) {
      messages.push(JSON.parse(event.data));
      if (firstOnly) break; // leaving the loop cancels the stream
    }
  } else {
    const text = await response.text();
    if (response.status === 202) expect(text).toBe("");
    else messages.push(JSON.parse(text));
  }
  expect(ALLOWED, `status ${response.status}`).toContain(response.status);
  for (const message of messages) wellFormed(message);
  if (response.status !== 200 && response.status !== 202) {
    expect(messages.at(-1)).toHaveProperty("error");
  }
  return { status: response.status, messages };
}

function wellFormed(message: Record<string, unknown>): void {
  expect(message.jsonrpc).toBe("2.0");
  if (!("error" in message)) return;
  const error = message.error as { code: unknown; message: unknown };
  expect(Number.isInteger(error.code)).toBe(true);
  expect(CODES, `error ${JSON.stringify(error)}`).toContain(error.code);
  expect(typeof error.message).toBe("string");
  // No stack trace, no runtime internals.
  expect(error.message).not.toMatch(
    /\n\s+at |\bat .*\.(ts|js):\d+|TypeError|RangeError|ReferenceError/,
  );
  // An error sent before the request's id was read says so with null (JSON-RPC 2.0).
  expect("id" in message).toBe(true);
  if (message.id !== null) expect(["string", "number"]).toContain(typeof message.id);
}

/** Runs `property` as a fast-check property with the fixed seed. */
export async function fuzz<T>(
  arbitrary: fc.Arbitrary<T>,
  numRuns: number,
  check: (value: T) => Promise<void>,
) {
  await fc.assert(fc.asyncProperty(arbitrary, check), { seed: SEED, numRuns, endOnFailure: true });
}

/** Prints the counts (the suite's figures in the closing note come from here). */
export function reportCounts(file: string): void {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const lines = [...counts].map(([name, n]) => `  ${n.toString().padStart(6)}  ${name}`);
  console.log(`fuzz ${file}: ${total} requests\n${lines.join("\n")}`);
}

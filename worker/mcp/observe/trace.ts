import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { Era } from "../../../shared/protocol/versions.ts";

/**
 * A request's observation, opened as it is served: its trace (`_meta.traceparent`, else the
 * header, read when first needed) and what it names. observe/log.ts writes its line when the
 * request is over.
 */
export function observe(
  server: string,
  method: string,
  params: Record<string, unknown> | undefined,
  headers: Headers,
): Observation {
  const observation = new Observation(server, params?._meta, headers);
  observation.method = method;
  const name = method === "resources/read" ? params?.uri : params?.name;
  if (typeof name === "string") observation.name = name.slice(0, 256);
  return observation;
}

/** What a request's log line needs besides its outcome, gathered while it is served. */
export class Observation {
  readonly started = Date.now();
  method: string | undefined;
  name: string | undefined;
  era: Era | undefined;
  subject: string | undefined;
  /** The exception behind a generic failure: details for the log only. */
  fault: unknown;
  /** Whether a tool answered `isError`. */
  toolError = false;

  #trace: Trace | undefined;
  readonly #meta: unknown;
  readonly #headers: Headers | undefined;

  /** `meta`: the request's `_meta`, where its `traceparent` may be. */
  constructor(
    readonly server: string,
    meta: unknown,
    headers: Headers | undefined,
  ) {
    this.#meta = meta;
    this.#headers = headers;
  }

  /**
   * The request's trace, made when something first reads it (an error's correlation id, a log
   * line, a call upstream): a request that succeeds quietly draws no ids.
   */
  get trace(): Trace {
    return (this.#trace ??= traceOf(this.#meta, this.#headers));
  }

  get correlationId(): string {
    return this.trace.spanId;
  }
}

/**
 * The W3C trace context of one request: the trace it belongs to (the caller's, when it sent a
 * valid `traceparent`, else a new one), the caller's span, and this request's own span, which
 * doubles as its correlation id in logs and error messages.
 */
type Trace = {
  traceId: string;
  /** This request's span id (16 hex digits): its correlation id. */
  spanId: string;
  /** The caller's span, from a valid incoming `traceparent`. */
  parentId?: string;
  /** Trace flags (2 hex digits; "01" sampled). */
  flags: string;
  /** The `traceparent` to send upstream: this trace, with this request as the parent span. */
  traceparent: string;
};

// version-traceid-parentid-flags, lowercase hex (W3C Trace Context, level 1).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/**
 * Reads a `traceparent` value, or undefined when it is malformed: wrong shape or case, version
 * ff, an all-zero trace or parent id, or a version-00 value with anything after the flags.
 * Future versions may append fields, which are ignored.
 */
export function parseTraceparent(
  value: unknown,
): { traceId: string; parentId: string; flags: string } | undefined {
  if (typeof value !== "string" || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(parentId)) return undefined;
  return { traceId, parentId, flags };
}

/**
 * Random bytes from the platform's generator, drawn a block at a time: one call serves the ids
 * of many requests (each takes 8 or 24 bytes), instead of one call, and one array, per id. Ids
 * are not secrets; they only need to be unique and unguessable enough not to collide.
 */
const random = { block: new Uint8Array(1024), used: 1024 };
let hexDigits: string[] | undefined;

function randomHex(bytes: number): string {
  if (random.used + bytes > random.block.length) {
    crypto.getRandomValues(random.block);
    random.used = 0;
  }
  hexDigits ??= Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
  let hex = "";
  const { block } = random;
  for (let i = random.used, end = random.used + bytes; i < end; i++) hex += hexDigits[block[i]!];
  random.used += bytes;
  return hex;
}

/**
 * The trace of a request: `_meta.traceparent` first, then the `traceparent` header; a
 * malformed value is ignored (never trusted, never echoed) and the request starts a new trace.
 */
export function traceOf(meta: unknown, headers: Headers | undefined): Trace {
  const incoming =
    parseTraceparent(isJsonObject(meta) ? meta.traceparent : undefined) ??
    parseTraceparent(headers?.get("traceparent"));
  const spanId = randomHex(8);
  const traceId = incoming?.traceId ?? randomHex(16);
  const flags = incoming?.flags ?? "00";
  return {
    traceId,
    spanId,
    ...(incoming ? { parentId: incoming.parentId } : {}),
    flags,
    traceparent: `00-${traceId}-${spanId}-${flags}`,
  };
}

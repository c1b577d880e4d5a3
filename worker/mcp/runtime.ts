import type { JsonRpcMessage } from "../../shared/jsonrpc.ts";
import type { Caller } from "../auth/bearer.ts";
import type { Access } from "../auth/access.ts";
import type { ReplyMode } from "../http/accept.ts";
import type { RequestLogger } from "./observe/log.ts";
import type { Coordination, EndpointLimits } from "./ports.ts";
import type { InProcessCall, WorkerContext } from "./request/in-process.ts";
import type { Served } from "./server/server.ts";

// What the pipeline is given: the endpoint's settings and the Worker's side of a request (from
// the handler, or a proxy calling serveMessage), and a message as framing leaves it.

/** Limits and timings of one endpoint, settled once per isolate. */
export type Settings = {
  /** Largest accepted body in bytes. */
  maxBodyBytes: number;
  /** How long the body may take to arrive, in milliseconds (0: no deadline). */
  bodyDeadlineMs: number;
  /** Bytes an SSE reply may hold for a client that stopped reading before it is closed. */
  sseBufferBytes: number;
  /** Interval of SSE keep-alive comments (0 turns them off). */
  keepAliveMs: number;
  /** How long a listen stream stays open before the server ends it gracefully. */
  listenMaxMs: number;
};

/** What serving a message needs besides the message: the Worker's side of the request. */
export type Runtime = {
  env: Cloudflare.Env;
  waitUntil(promise: Promise<unknown>): void;
  coordination: Coordination;
  /** What each caller may use, counted (from `durable`'s module); undefined: nothing counted. */
  limits?: EndpointLimits | undefined;
  /**
   * The request was sent to this machine (or by a caller of this isolate): a server that seals
   * accepts the published example secrets only then.
   */
  local?: boolean;
  settings: Settings;
  /** Receives one entry per request served (see `McpAppOptions.log`). */
  log?: RequestLogger | undefined;
  /**
   * Who may do what on this endpoint (anonymous access, policy rules); without it, everything
   * is allowed (a proxy that decided already).
   */
  access?: Access;
  /** Counted by the hub of this Worker already: only live tasks are counted again here. */
  forwarded?: boolean;
};

/** One JSON-RPC message as framing left it, with what the pipeline still reads of its request. */
export type Framed = {
  message: JsonRpcMessage;
  /** The request's headers: its routing headers, and where it came from. */
  headers: Headers;
  /** Aborts when the client goes away (read only by calls that need it). */
  readonly signal: AbortSignal;
  /** How the reply may be framed (`Accept`). */
  mode: ReplyMode;
  /** Who sent it, once authenticated; undefined for an anonymous caller. */
  caller: Caller | undefined;
};

/**
 * An endpoint's way in for a proxy of this isolate that calls its method table (`directEntry`
 * in dispatch.ts): its server, and `open`, the handler's checks on a call given as its URL,
 * signal and headers (read only to authenticate), which give its caller and runtime or throw
 * the refusal. Only a proxy that imports `directEntry` links the rest of the way.
 */
export type DirectOpener = {
  server: Served;
  open(
    call: Omit<InProcessCall, "message">,
    env: Cloudflare.Env,
    ctx: WorkerContext,
  ): Promise<{ caller: Caller | undefined; runtime: Runtime }>;
};

const openers = new WeakMap<object, DirectOpener>();

/** Registers how direct calls open the endpoint `app` serves (mcpHandler, mcpApp). */
export function registerOpener(app: object, opener: DirectOpener): void {
  openers.set(app, opener);
}

/** How direct calls open the endpoint `app` serves; undefined for any other fetch handler. */
export function openerOf(app: object): DirectOpener | undefined {
  return openers.get(app);
}

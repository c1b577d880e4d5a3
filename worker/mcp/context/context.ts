import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { JsonObject, JsonRpcId } from "../../../shared/protocol/messages.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";
import type { Era } from "../../../shared/protocol/versions.ts";
import type { Caller } from "../../auth/bearer.ts";
import type { Handles } from "./handles.ts";
import type { InputAnswers } from "../input/answers.ts";
import type { InputRelay } from "../input/relay.ts";
import type { InputRequest } from "../input/requests.ts";

/** What a request's envelope declares, once its era has read and checked it. */
export type Envelope = {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** The level the client asked logs at (modern `_meta`); absent means no log messages. */
  logLevel?: LogLevel;
  /** Present when the client asked for progress notifications. */
  progressToken?: string | number;
};

/** What the runtime knows about the request being served. */
export type RequestInfo = Envelope & {
  id: JsonRpcId;
  method: string;
  era: Era;
  /** This request's id in logs and in generic error messages (its span id in the trace). */
  correlationId: string;
  /** W3C `traceparent` for calls this request makes: its trace, with itself as parent span. */
  traceparent: string;
};

/** Sends a message before the response; false when the client cannot receive it (JSON only, or gone). */
export type Notify = (message: JsonObject) => boolean;

/** Something that happened on a server, published to its listen streams. */
export type ListenEvent =
  | { kind: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" }
  | { kind: "resourceUpdated"; uri: string }
  | { kind: "task"; taskId: string; subject: string; task: Record<string, unknown> };

/** Announces changes to every listen stream of a server, on every instance (`ctx.notify`). */
export type ChangeNotifier = {
  toolsListChanged(): Promise<void>;
  promptsListChanged(): Promise<void>;
  resourcesListChanged(): Promise<void>;
  /** `uri` changed; streams subscribed to it or to a parent URI hear of it. */
  resourceUpdated(uri: string): Promise<void>;
};

/** Passed to every handler: bindings, cancellation, and the request's notification channel. */
export type HandlerContext = {
  /** The Worker's bindings (typed by `wrangler types`). */
  env: Cloudflare.Env;
  /**
   * Aborted when the client closes the stream or goes away. Made when first read (most calls
   * never need one), by a getter: `{ ...ctx }` leaves it out, so pass `ctx` itself, or copy
   * `signal: ctx.signal` explicitly.
   */
  readonly signal: AbortSignal;
  request: RequestInfo;
  /** Reports progress when the client asked for it (values must increase). */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message when the client asked for logs at this level or lower. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Keeps background work alive after the response (Workers `ctx.waitUntil`). */
  waitUntil(promise: Promise<unknown>): void;
  /** Who is calling, when the request was authenticated; undefined for anonymous callers. */
  caller: Caller | undefined;
  /** Sealed handles bound to this caller: state that spans calls without sessions. */
  handles: Handles;
  /**
   * Asks the client for input (build requests with `elicit`, `elicitUrl`, `sample`,
   * `listRoots`) and resolves with the typed answers. Over 2026-07-28 a missing answer ends
   * this round with `input_required` and the handler runs again when the client retries, so
   * everything before the call must be safe to repeat. Only tools, prompts and resource reads
   * may ask; the client must have declared the matching capability (else -32021).
   */
  input<T extends Record<string, InputRequest<unknown>>>(requests: T): Promise<InputAnswers<T>>;
  /** Passes input requests of another server through to this client (for proxies, like the hub). */
  relay: InputRelay;
  /** Announces list and resource changes on the server's listen streams, across instances. */
  notify: ChangeNotifier;
};

/** Where a call's signal is read from: an AbortController, a request, or a call's lazy one. */
export type Cancel = { readonly signal: AbortSignal };

/** How a handler asks its client for input: typed requests, or relayed ones. */
export type Asking = Pick<HandlerContext, "input" | "relay">;

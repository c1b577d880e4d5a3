import type { ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { HandlerContext, RequestInfo } from "../context/context.ts";
import type { CallerTasks, Coordination, DurableCoordination, ListenHub } from "../ports.ts";

/**
 * Where a prompt, resource or template made by its builder (`prompt`, `resource`,
 * `resourceTemplate` from `edgemcp/server`) keeps the methods that serve it: the builder brings
 * them, so a server without prompts links no prompts/* code, one without completers no
 * completion/complete.
 */
export const METHODS: unique symbol = Symbol("edgemcp.methods");

/**
 * Where the same entries keep what checks them and puts them in the server's catalog
 * (catalog/entries.ts), so a server without them links none of those checks either.
 */
export const ENTRIES: unique symbol = Symbol("edgemcp.entries");

/**
 * What an entry of a definition brings: its methods (method name to its route, methods/method.ts)
 * and its catalog's check (`(catalog, problems) => void`; define/ cannot name those types).
 */
export type EntryMethods = {
  readonly [METHODS]: Readonly<Record<string, object>>;
  readonly [ENTRIES]: (catalog: never, problems: never) => void;
};

/** What a feature's method gets of its request. */
export type FeatureCall = {
  params: JsonObject;
  ctx: HandlerContext;
  /** This caller's tasks, when the server keeps tasks in the task store and advertises them. */
  tasks: CallerTasks | undefined;
};

/** A listen request as its route sees it: a stream that outlives the call's own context. */
export type Listening = {
  server: string;
  /** Who listens: task notifications reach only the task's own caller. */
  subject: string;
  capabilities: ServerCapabilities;
  info: RequestInfo;
  params: JsonObject;
  coordination: { listen?: ListenHub | undefined };
  keepAliveMs: number;
  sseBufferBytes: number;
  listenMaxMs: number;
  /** The handler context for a stream whose end aborts `signal`. */
  context(signal: AbortSignal): HandlerContext;
};

/** A method a feature adds: answered once, or a stream that answers itself. */
export type FeatureRoute =
  | { run: (call: FeatureCall) => Promise<JsonObject> | JsonObject }
  | { stream: (listening: Listening) => Promise<Response> };

/**
 * A feature a server links by naming it in its definition (`tasks: storedTasks`,
 * `listen: listenStreams`, ...): the 2026-07-28 methods it adds, and whether this server offers
 * them. A server without it has neither its methods (-32601) nor its capabilities, and does
 * not link its code.
 */
export interface ServerFeature {
  readonly routes: Readonly<Record<string, FeatureRoute>>;
  /**
   * Whether the server offers the feature's methods (and advertises them), given the ports
   * its handler has and whether any tool may run as a task.
   */
  offered(coordination: Coordination, catalog: { taskTools: boolean }): boolean;
  /**
   * Called once when `mcpHandler` mounts the server (a `Served`, which this floor cannot name),
   * with the handler's `durable` option: a feature whose Durable Objects must find the server
   * again (stored tasks) records it here.
   */
  mounted?(
    server: { readonly name: string },
    durable: ((env: Cloudflare.Env) => DurableCoordination) | undefined,
  ): void;
}

import type { McpClient, RequestOptions } from "../../shared/client/index.ts";
import { McpError, rpcError } from "../../shared/client/errors.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { ClientCapabilities } from "../../shared/protocol/capabilities.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { isLogLevel } from "../../shared/protocol/meta.ts";
import type { DirectCall, DirectEntry, DirectReply, WorkerContext } from "../mcp/index.ts";

/** What forwarding asks of an upstream: a client, or a server of this Worker called directly. */
export type Upstream = Pick<McpClient, "era" | "request">;

/** A server of this Worker as the hub reaches it: its direct entry, URL and call context. */
export type DirectTarget = { entry: DirectEntry; url: string; ctx: WorkerContext };

/** Who one call is for: the headers a client would authenticate with, and the caller's side. */
export type DirectCaller = {
  credentials: Readonly<Record<string, string>>;
  address: string | undefined;
  capabilities: ClientCapabilities;
};

const HUB_INFO = { name: "edgemcp-hub", version: "0.1.0" };
/**
 * A request's options, where a direct call may take instead of a signal and `_meta`'s trace
 * where to read them from if the server needs them (`ctx.signal`, a handler that reads
 * `ctx.request.traceparent` or a log line): the hub's forwarded call, its request's info.
 */
export type DirectOptions = RequestOptions & {
  cancel?: { readonly signal: AbortSignal };
  trace?: { readonly traceparent: string };
};

/** Progress tokens of direct calls: each call gets its own notifications only. */
let lastToken = 0;

/**
 * A server mounted in this Worker, called for one caller straight through its method table
 * (`directEntry`): no client, no envelope or headers to build and check, no reply to frame and
 * read. Its results, errors and notifications are those a client of its endpoint would read.
 */
export class DirectUpstream implements Upstream {
  readonly era = "modern";

  constructor(
    private readonly target: DirectTarget,
    private readonly caller: DirectCaller,
    private readonly env: Cloudflare.Env,
  ) {}

  /**
   * One request; `options.cancel`, where given instead of a signal, is where the call's signal
   * is read from if the server reads it (a handler reading `ctx.signal`).
   */
  async request(
    method: string,
    params: JsonObject = {},
    options: DirectOptions = {},
  ): Promise<JsonObject> {
    const { target, caller } = this;
    const { onProgress, onLog } = options;
    const progressToken = onProgress ? ++lastToken : undefined;
    const call: DirectCall = new Call(options, {
      url: target.url,
      method,
      params,
      clientCapabilities: caller.capabilities,
      clientInfo: HUB_INFO,
      logLevel: options.logLevel,
      progressToken,
      credentials: caller.credentials,
      address: caller.address,
      // A method, not an arrow: bundlers keeping names would wrap an arrow on every call.
      notify(message) {
        const p = message.params;
        if (!isJsonObject(p)) return;
        if (message.method === "notifications/progress" && onProgress) {
          if (p.progressToken !== progressToken || typeof p.progress !== "number") return;
          onProgress({
            progress: p.progress,
            ...(typeof p.total === "number" ? { total: p.total } : {}),
            ...(typeof p.message === "string" ? { message: p.message } : {}),
          });
        } else if (message.method === "notifications/message" && onLog && isLogLevel(p.level)) {
          onLog({ ...p, level: p.level, data: p.data });
        }
      },
    });
    return resultOf(await target.entry(call, this.env, target.ctx), method);
  }
}

/** A signal for calls made without one: it never aborts. */
let never: AbortSignal | undefined;

/**
 * A direct call whose signal is read from the request's options when the server first reads
 * it. A class, so that the getter does not make V8 build each call as a slow dictionary.
 */
class Call implements DirectCall {
  readonly url: string;
  readonly method: string;
  readonly params: JsonObject;
  readonly clientCapabilities: DirectCall["clientCapabilities"];
  readonly clientInfo: DirectCall["clientInfo"];
  readonly logLevel: DirectCall["logLevel"];
  readonly progressToken: DirectCall["progressToken"];
  readonly credentials: DirectCall["credentials"];
  readonly address: DirectCall["address"];
  readonly notify: DirectCall["notify"];

  constructor(
    private readonly options: DirectOptions,
    parts: Omit<DirectCall, "signal" | "traceparent">,
  ) {
    this.url = parts.url;
    this.method = parts.method;
    this.params = parts.params;
    this.clientCapabilities = parts.clientCapabilities;
    this.clientInfo = parts.clientInfo;
    this.logLevel = parts.logLevel;
    this.progressToken = parts.progressToken;
    this.credentials = parts.credentials;
    this.address = parts.address;
    this.notify = parts.notify;
  }

  get traceparent(): string | undefined {
    const { trace, meta } = this.options;
    return trace ? trace.traceparent : traceparentOf(meta);
  }

  get signal(): AbortSignal {
    const { options } = this;
    return options.cancel?.signal ?? options.signal ?? (never ??= new AbortController().signal);
  }
}

function traceparentOf(meta: Record<string, unknown> | undefined): string | undefined {
  const value = meta?.traceparent;
  return typeof value === "string" ? value : undefined;
}

/**
 * The result of a direct call, or the error a client of the endpoint would have thrown: an auth
 * refusal (401, 403) is an HTTP failure, any other error the server's JSON-RPC error.
 */
function resultOf(reply: DirectReply, method: string): JsonObject {
  if (reply.result) return reply.result;
  const { status, error } = reply;
  const context = { era: "modern" as const, method };
  if (status !== 401 && status !== 403) throw rpcError(error, status, context);
  throw new McpError(error.message, {
    kind: "http",
    status,
    code: error.code,
    data: error.data,
    ...context,
  });
}

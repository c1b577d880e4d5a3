import { McpError, type FetchLike } from "../../shared/client/index.ts";
import { errorText, fetchFailureText } from "../../shared/error-text.ts";
import { isJsonObject, type JsonRpcMessage } from "../../shared/jsonrpc.ts";
import type {
  JsonObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
} from "../../shared/protocol/messages.ts";
import { ErrorCode } from "../../shared/protocol/errors.ts";
import { Header } from "../../shared/protocol/headers.ts";
import { LegacySession } from "./legacy-session.ts";
import { ModernRouter } from "./modern-router.ts";
import { hostError, readHostLine, refusal } from "./host-messages.ts";
import { answers, replyMessages, ReplyError } from "./reply.ts";
import { modernVersionOf } from "./routing.ts";
import { Upstream } from "./upstream.ts";

/** Where the bridge forwards to, and how it talks to the host. */
export type BridgeOptions = {
  url: string;
  /** Sent with every HTTP request (credentials); the transport's own headers win. */
  headers: Record<string, string>;
  fetch: FetchLike;
  /** Hands one message to the host (stdout). */
  send: (message: unknown) => void;
  /** Says something to whoever reads the bridge's stderr. */
  log: (line: string) => void;
};

/** A notification, or a response to a 2025 server's request, from the host. */
type Outgoing = Exclude<JsonRpcMessage, { kind: "request" }>;

/** A host request whose reply is still streaming. */
type InFlight = { controller: AbortController; modern: boolean; method: string };

/**
 * A stdio ↔ Streamable HTTP bridge. Each message from the host becomes one POST; whatever the
 * reply carries (progress, log messages, 2025 server requests, listen notifications, the
 * response) goes back to the host as it arrives. 2026-era messages get the routing headers
 * their body implies; 2025-era ones the version and session `initialize` settled. The host's
 * `notifications/cancelled` closes the request's stream (the 2026 cancellation) and is also
 * forwarded to 2025 servers.
 */
export class Bridge {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly pending = new Set<Promise<void>>();
  private readonly upstream: Upstream;
  private readonly session = new LegacySession();
  private readonly router: ModernRouter;

  constructor(private readonly options: BridgeOptions) {
    this.upstream = new Upstream(options.url, options.headers, options.fetch);
    this.router = new ModernRouter(this.upstream, options.log);
  }

  /** Handles one line from the host. */
  receive(line: string): void {
    const read = readHostLine(line);
    if (read === undefined) return;
    if ("error" in read) this.options.send(read);
    else if (read.kind === "request") this.track(this.request(read.message));
    else if (read.kind === "notification" && read.message.method === "notifications/cancelled")
      this.cancel(read.message);
    else this.track(this.deliver(read));
  }

  /**
   * Ends everything once the host is done: listen streams close at once, other requests get
   * `graceMs` to finish (their answers still reach the host) unless `stop` fires, then the
   * rest are cancelled and a 2025 session is deleted.
   */
  async close(graceMs: number, stop?: AbortSignal): Promise<void> {
    this.session.stopStream();
    for (const { controller, method } of this.inFlight.values()) {
      if (method === "subscriptions/listen") controller.abort();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, stop?.aborted ? 0 : graceMs);
      stop?.addEventListener("abort", () => resolve(), { once: true });
    });
    await Promise.race([Promise.allSettled(this.pending), grace]);
    clearTimeout(timer);
    for (const { controller } of this.inFlight.values()) controller.abort();
    await Promise.allSettled(this.pending);
    await this.session.end(this.upstream);
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private fail(id: JsonRpcId, code: number, message: string): void {
    this.options.send(hostError(id, code, message));
  }

  private async request(request: JsonRpcRequest): Promise<void> {
    const key = JSON.stringify(request.id);
    if (this.inFlight.has(key)) {
      this.fail(request.id, ErrorCode.InvalidRequest, `Request id ${key} is already in use.`);
      return;
    }
    const version = modernVersionOf(request.params);
    const controller = new AbortController();
    this.inFlight.set(key, { controller, modern: version !== undefined, method: request.method });
    try {
      const transport =
        version === undefined
          ? this.session.headers()
          : await this.router.headers(version, request, controller.signal);
      const response = await this.upstream.post(request, transport, controller.signal);
      if (!response.ok) {
        this.options.send(await refusal(request.id, response, this.upstream.url));
        return;
      }
      let answered = false;
      // A 2025 server may drop the reply's stream and expect it resumed from its last event.
      const resume =
        version === undefined
          ? {
              reopen: (lastEventId: string) =>
                this.upstream.listen(
                  { ...this.session.headers(), "Last-Event-ID": lastEventId },
                  controller.signal,
                ),
              signal: controller.signal,
            }
          : undefined;
      for await (const message of replyMessages(response, resume)) {
        if (!answers(message, request.id)) {
          this.relay(message);
          continue;
        }
        answered = true;
        this.options.send(this.observe(request, version, response.headers, message));
        // The response ends a 2025 request: the stream's end after it is no drop to resume.
        if (resume) break;
      }
      if (!answered && !controller.signal.aborted) {
        const reason = "The server ended its reply without answering.";
        this.fail(request.id, ErrorCode.InternalError, reason);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      // A reply the bridge could not read, or a sign-in the server asks for, says so itself.
      const reason =
        error instanceof ReplyError || error instanceof McpError
          ? error.message
          : `Could not reach ${this.upstream.url}: ${fetchFailureText(error)}`;
      this.fail(request.id, ErrorCode.InternalError, reason);
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** What the bridge learns from a response before the host gets it. */
  private observe(
    request: JsonRpcRequest,
    version: string | undefined,
    headers: Headers,
    message: JsonObject,
  ): JsonObject {
    if (request.method === "initialize") this.session.observeInitialize(headers, message);
    if (request.method === "tools/list" && version !== undefined) {
      return this.router.observeList(request, message);
    }
    return message;
  }

  /** Passes a message that is not the response on to the host. */
  private relay(message: unknown): void {
    if (isJsonObject(message) && message.method === "notifications/tools/list_changed") {
      this.router.reset();
    }
    this.options.send(message);
  }

  /** The host cancels a request: its stream closes, and a 2025 server is told. */
  private cancel(notification: JsonRpcNotification): void {
    const entry = this.inFlight.get(JSON.stringify(notification.params?.requestId));
    if (entry === undefined) return;
    if (!entry.modern) this.track(this.deliver({ kind: "notification", message: notification }));
    entry.controller.abort();
  }

  /** POSTs a notification or a response to a 2025 server request; the server answers 202. */
  private async deliver(outgoing: Outgoing): Promise<void> {
    const notification = outgoing.kind === "notification" ? outgoing.message : undefined;
    const what =
      outgoing.kind === "notification"
        ? outgoing.message.method
        : `the answer to request ${JSON.stringify(outgoing.message.id)}`;
    const version = modernVersionOf(notification?.params);
    const transport =
      version === undefined ? this.session.headers() : { [Header.protocolVersion]: version };
    try {
      const response = await this.upstream.post(outgoing.message, transport);
      await response.body?.cancel();
      if (!response.ok) {
        this.options.log(`The server refused ${what} with HTTP ${response.status}.`);
      } else if (notification?.method === "notifications/initialized") {
        const relay = (message: unknown) => this.relay(message);
        this.track(this.session.openStream(this.upstream, relay, this.options.log));
      }
    } catch (error) {
      this.options.log(`Could not deliver ${what}: ${errorText(error)}`);
    }
  }
}

import { isJsonObject } from "../jsonrpc.ts";
import type { JsonObject } from "../protocol/messages.ts";
import type { CompleteParams, ListenFilter } from "../protocol/params.ts";
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "../protocol/results.ts";
import type { Task } from "../protocol/tasks.ts";
import type { Era } from "../protocol/versions.ts";
import { paramHeaders, startToolCall, type ToolArguments } from "./call-tool.ts";
import type { ClientCore } from "./core.ts";
import type { EraTraits } from "./era/era.ts";
import type { ServerDescription } from "./description.ts";
import { list, listTools, PROMPTS, RESOURCES, TEMPLATES } from "./lists.ts";
import { openListen } from "./listen/listen.ts";
import { complete, discover, getPrompt, readResource, resourceSubscription } from "./operations.ts";
import type {
  CachedRequestOptions,
  CallToolOptions,
  InputRoundOptions,
  ListOptions,
  Reply,
  RequestOptions,
} from "./options.ts";
import type { Subscription } from "./listen/subscription.ts";
import { awaitTask, type AwaitTaskOptions } from "./tasks/await-task.ts";
import { TaskHandle } from "./tasks/task-handle.ts";
import { endSession } from "./transport.ts";
import type { BackgroundStream } from "./background/background.ts";
import type { BackgroundSink, BackgroundState } from "./background/types.ts";
import { ListenNotificationSchema } from "../protocol/notifications.ts";

/** An MCP client bound to one server, in the era found when connecting (see `connect`). */
export class McpClient {
  private readonly subscriptions = new Set<Subscription>();
  private background: BackgroundStream | undefined;

  constructor(private readonly core: ClientCore) {}

  get era(): Era {
    return this.core.era.name;
  }

  /** What a user interface says and offers for the era: its label, handshake, listen streams. */
  get eraTraits(): EraTraits {
    return this.core.era.traits;
  }

  /** What the server said about itself when connecting (or at the last `discover`). */
  get server(): ServerDescription {
    return this.core.description;
  }

  /** The legacy session id, when a 2025 server gave one. */
  get sessionId(): string | undefined {
    return this.core.conn.sessionId;
  }

  /** Where the 2025 background stream stands; undefined when none was opened. */
  get backgroundState(): BackgroundState | undefined {
    return this.background?.state;
  }

  /**
   * Opens the session's background stream where the era has one (`connect` does, unless told
   * not to); what it reports also invalidates this client's cache.
   */
  async openBackground(sink: BackgroundSink): Promise<void> {
    const open = this.core.era.background;
    if (!open || this.background) return;
    this.background = open(this.core.conn, {
      onNotification: (notification) => {
        const known = ListenNotificationSchema.safeParse(notification);
        if (known.success) this.core.observe(known.data);
        sink.onNotification(notification);
      },
      onState: sink.onState,
    });
    await this.background.opened();
  }

  /** Replaces the headers sent with every request (e.g. a refreshed `Authorization`). */
  setHeaders(headers: Record<string, string>): void {
    this.core.conn.headers = { ...headers };
  }

  /** `server/discover` through the cache; 2025 servers answer from their `initialize` result. */
  discover(options: CachedRequestOptions = {}): Promise<Reply<ServerDescription>> {
    return discover(this.core, options);
  }

  /** Every tool (all pages), or one page with `cursor`/`onePage`. */
  listTools(options: ListOptions = {}): Promise<Reply<ListToolsResult>> {
    return listTools(this.core, options);
  }

  listPrompts(options: ListOptions = {}): Promise<Reply<ListPromptsResult>> {
    return list(this.core, PROMPTS, options);
  }

  listResources(options: ListOptions = {}): Promise<Reply<ListResourcesResult>> {
    return list(this.core, RESOURCES, options);
  }

  listResourceTemplates(options: ListOptions = {}): Promise<Reply<ListResourceTemplatesResult>> {
    return list(this.core, TEMPLATES, options);
  }

  /**
   * Calls a tool, answering input rounds; a task is followed to its result, or returned as a
   * `TaskHandle` with `returnTask`.
   */
  callTool(
    name: string,
    args?: ToolArguments,
    options?: CallToolOptions & { returnTask?: false },
  ): Promise<Reply<CallToolResult>>;
  callTool(
    name: string,
    args: ToolArguments | undefined,
    options: CallToolOptions & { returnTask: true },
  ): Promise<Reply<CallToolResult | TaskHandle>>;
  async callTool(
    name: string,
    args?: ToolArguments,
    options: CallToolOptions = {},
  ): Promise<Reply<CallToolResult | TaskHandle>> {
    const outcome = await startToolCall(this.core, name, args, options);
    if (outcome.type === "result") return { result: outcome.result, source: "network" };
    if (options.returnTask) {
      return { result: new TaskHandle(this.core, outcome.task), source: "network" };
    }
    return { result: await awaitTask(this.core, outcome.task, options), source: "network" };
  }

  getPrompt(
    name: string,
    args?: Record<string, string>,
    options: InputRoundOptions = {},
  ): Promise<Reply<GetPromptResult>> {
    return getPrompt(this.core, name, args, options);
  }

  /** Reads a resource through the cache; results that needed input rounds are never stored. */
  readResource(
    uri: string,
    options: InputRoundOptions & CachedRequestOptions = {},
  ): Promise<Reply<ReadResourceResult>> {
    return readResource(this.core, uri, options);
  }

  complete(params: CompleteParams, options: RequestOptions = {}): Promise<Reply<CompleteResult>> {
    return complete(this.core, params, options);
  }

  /** Opens `subscriptions/listen`; what it reports also invalidates this client's cache. */
  async listen(
    filter: ListenFilter,
    options: Pick<RequestOptions, "signal" | "meta"> = {},
  ): Promise<Subscription> {
    const subscription = await openListen(this.core, filter, options);
    this.subscriptions.add(subscription);
    void subscription.closed.then(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  /** `resources/subscribe` (2025): the resource's updates arrive on the background stream. */
  subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    return resourceSubscription(this.core, "resources/subscribe", uri, options);
  }

  /** `resources/unsubscribe` (2025). */
  unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    return resourceSubscription(this.core, "resources/unsubscribe", uri, options);
  }

  /** A handle on a task known by id (from a listen stream, or kept from an earlier call). */
  async task(taskId: string, options: RequestOptions = {}): Promise<TaskHandle> {
    const handle = new TaskHandle(this.core, { taskId, status: "working" });
    await handle.refresh(options);
    return handle;
  }

  /** Waits for a task's tool result (see `TaskHandle.result`). */
  awaitTask(task: Task, options: AwaitTaskOptions = {}): Promise<CallToolResult> {
    return awaitTask(this.core, task, options);
  }

  /**
   * Sends any request with this client's envelope and headers (for `tools/call`, the tool's
   * `Mcp-Param-*` headers too) and returns the raw result, unvalidated: `input_required` and
   * task results come back as they are, for callers that handle them (the hub relays them).
   */
  async request(
    method: string,
    params: JsonObject = {},
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    if (method !== "tools/call" || typeof params.name !== "string")
      return this.core.send(method, params, options);
    const args = isJsonObject(params.arguments) ? params.arguments : {};
    return this.core.send(
      method,
      params,
      options,
      await paramHeaders(this.core, params.name, args, options),
    );
  }

  /** Forgets every cached result. */
  clearCache(): void {
    this.core.caches.clear();
    this.core.tools.reset();
  }

  /** Closes open listen streams and the background stream, and ends a legacy session. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.background?.close();
    if (this.core.conn.sessionId !== undefined) {
      await endSession(this.core.conn, this.core.conn.sessionHeaders());
    }
  }
}

import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";
import type { CacheHint } from "../../../shared/protocol/results.ts";
import type { HandlerContext } from "../context/context.ts";
import type { Sealing } from "../context/handles.ts";
import type { ServerFeature } from "./features.ts";
import type { InputRounds } from "./input.ts";
import type { JsonSchemaConverter } from "../schema/json-schema.ts";
import type { PromptEntry } from "./prompt.ts";
import type { ResourceEntry, TemplateEntry } from "./resource.ts";
import type { AnyTool } from "./tool.ts";

import type { ListKey } from "../context/paging.ts";

export type { CacheHint };

export type { ListKey };

/** A server: who it is, what it offers, and how its lists are cached and paged. */
export type ServerDefinition = Omit<Implementation, "title"> & {
  title?: string;
  instructions?: string;
  /** Default cache hint for discover, lists and reads, with optional per-list overrides. */
  cache?: CacheHint & {
    discover?: CacheHint;
    tools?: CacheHint;
    prompts?: CacheHint;
    resources?: CacheHint;
    resourceTemplates?: CacheHint;
  };
  /**
   * Items per page: one number for every list, or per list (default 100). A list longer than
   * one page needs `sealing` (its cursors are sealed).
   */
  pageSize?: number | Partial<Record<ListKey, number>>;
  /** Advertise the (deprecated) logging capability. */
  logging?: boolean;
  /**
   * Explains a tool or prompt name this server does not list but knows about (the hub: one of an
   * upstream that is down): tools/call answers it as an `isError` result, prompts/get as -32603.
   * Undefined for a name that is simply unknown.
   */
  unlisted?: (kind: "tool" | "prompt", name: string) => string | undefined;
  tools?: AnyTool[];
  /**
   * Sealing with the Worker's `EDGEMCP_SECRET`: `sealing` from `edgemcp/server`, for a server
   * whose handlers use `ctx.handles` or whose lists are longer than one page (their cursors are
   * sealed). `input: inputRounds` brings it along. Without it none of that is linked, and the
   * server needs no secret.
   */
  sealing?: Sealing;
  /**
   * Lets handlers ask their clients for input (`ctx.input`, `ctx.relay`): `inputRounds` from
   * `edgemcp/server`. Without it none of that is linked, and asking rejects.
   */
  input?: InputRounds;
  /** Fixed resources, each made by `resource()` (which brings the resources methods). */
  resources?: ResourceEntry[];
  /** Resource templates, each made by `resourceTemplate()`. */
  resourceTemplates?: TemplateEntry[];
  /** Prompts, each made by `prompt()` (which brings the prompts methods). */
  prompts?: PromptEntry[];
  /**
   * zod's JSON Schema converter (`toJSONSchema: z.toJSONSchema`), for schemas the runtime's own
   * writer does not cover (recursive ones, `z.lazy`, intersections, tuples...): with it, every
   * tool's schemas are derived by zod. Without it, such a schema is a DefinitionError, and zod's
   * converter (about 7 KiB gzip) stays out of the Worker.
   */
  toJSONSchema?: JsonSchemaConverter;
  /**
   * Tasks (extension io.modelcontextprotocol/tasks: `tasks/get`, `tasks/update`,
   * `tasks/cancel`): `storedTasks` from `edgemcp/server`, for tools with `task` run in the task
   * store of `durable`, or `routedTasks(router)` for tasks that run elsewhere (the hub routes
   * them to its upstreams). Without it none of that is linked, nor offered.
   */
  tasks?: ServerFeature;
  /**
   * Listen streams (`subscriptions/listen`, `listChanged`, resource subscriptions):
   * `listenStreams` from `edgemcp/server`, held by the listen hub of `durable`, or
   * `listenFromSource(source)` for a server that feeds its own streams (the hub relays its
   * upstreams'). Without it none of that is linked, nor offered.
   */
  listen?: ServerFeature;
};

/** Routes the tasks methods for a server whose tasks run elsewhere. */
export type TaskRouter = {
  get(taskId: string, ctx: HandlerContext): Promise<JsonObject>;
  update(
    taskId: string,
    inputResponses: Record<string, unknown>,
    ctx: HandlerContext,
  ): Promise<JsonObject>;
  cancel(taskId: string, ctx: HandlerContext): Promise<JsonObject>;
};

import type * as z from "zod/mini";
import type { Annotations, Icon } from "../../shared/protocol/content.ts";
import type { ClientCapabilities } from "../../shared/protocol/capabilities.ts";
import type {
  Implementation,
  PromptArgument,
  ToolAnnotations,
} from "../../shared/protocol/primitives.ts";

import type { JsonObject, JsonRpcId } from "../../shared/protocol/messages.ts";
import type { CacheHint } from "../../shared/protocol/results.ts";
import type { ListenSettings } from "./listen.ts";
import type { ListenFilter } from "../../shared/protocol/notifications.ts";

import type { HandlerContext } from "./context.ts";
import type {
  CompletionReturn,
  PromptReturn,
  ReadReturn,
  ToolResult,
  ToolReturn,
} from "./results.ts";
import {
  UriTemplate,
  type TemplateParams,
  type TemplateVariables,
} from "../../shared/uri-template.ts";

export type { CacheHint };

/** The four paginated lists, named by their result member. */
export type ListKey = "tools" | "prompts" | "resources" | "resourceTemplates";

type Display = {
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
};

// Zod object schemas whose JSON Schema form has `type: "object"` at the root.
type ObjectSchema = z.core.$ZodObject;

export type ToolDefinition<
  I extends ObjectSchema = ObjectSchema,
  O extends z.core.$ZodType | undefined = undefined,
> = Display & {
  name: string;
  /**
   * Arguments, as a zod object (classic `zod` or `zod/mini`); mark a property for `Mcp-Param-*`
   * with `.meta({ "x-mcp-header": "Name" })` (zod/mini: `.check(z.meta({ ... }))`).
   */
  input?: I;
  /**
   * The JSON Schema to advertise instead of the one derived from `input`, for schemas zod
   * cannot express (e.g. if/then/else). Arguments are still validated with `input` when given;
   * without `input` they reach `run` unchecked, so the tool must check them itself.
   */
  inputSchema?: JsonObject;

  /** The output JSON Schema to advertise when there is no `output` (e.g. a forwarded tool). */
  outputSchema?: JsonObject;
  /** Structured result; when set, `run` returns a value of this shape (or a `toolResult`). */

  output?: O;
  annotations?: ToolAnnotations;
  /** Client capabilities the tool needs; modern calls without them get -32021. */
  requires?: ClientCapabilities;
  /**
   * Whether the tool may run as a task (extension io.modelcontextprotocol/tasks): "optional"
   * runs as a task for clients that declared the extension and inline for others;
   * "required" refuses clients without it (-32021). Tasks outlive the request.
   */
  task?: { mode: "optional" | "required"; ttlMs?: number; pollIntervalMs?: number };

  run(args: z.output<I>, ctx: HandlerContext): Promise<ToolOutput<O>> | ToolOutput<O>;
};

type ToolOutput<O> = O extends z.core.$ZodType ? z.input<O> | ToolResult<z.input<O>> : ToolReturn;

/** A tool as the registry stores it, its types erased (arguments are validated before `run`). */
export type AnyTool = ToolDefinition<ObjectSchema, z.core.$ZodType | undefined>;

type NoInput = z.core.$ZodObject<Record<string, z.core.$ZodType>>;

/** A tool whose argument and result types are inferred from its zod schemas. */
export function tool<I extends ObjectSchema = NoInput>(
  definition: ToolDefinition<I, undefined>,
): AnyTool;
export function tool<I extends ObjectSchema, O extends z.core.$ZodType>(
  definition: ToolDefinition<I, O> & { output: O },
): AnyTool;
export function tool(definition: AnyTool): AnyTool {
  return definition;
}

export type ResourceDefinition = Display & {
  uri: string;
  name: string;
  mimeType?: string;
  annotations?: Annotations;
  size?: number;
  /** Cache hint for reads of this resource (defaults to the server's). */
  cache?: CacheHint;
  read(ctx: HandlerContext): Promise<ReadReturn> | ReadReturn;
};

/** A fixed resource at one URI. */
export function resource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}

export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
  ctx: HandlerContext,
) => Promise<CompletionReturn> | CompletionReturn;

export type ResourceTemplateDefinition<T extends string = string> = Display & {
  uriTemplate: T;
  name: string;
  mimeType?: string;
  annotations?: Annotations;
  cache?: CacheHint;
  /** Completion of the template's variables for `completion/complete`. */
  complete?: Partial<Record<TemplateVariables<T>, Completer>>;
  /** Concrete resources of this template to include in `resources/list`. */
  list?(ctx: HandlerContext): Promise<ListedResource[]> | ListedResource[];
  /** Reads one matching URI; `undefined` means there is no such resource. */
  read(
    params: TemplateParams<T>,
    uri: string,
    ctx: HandlerContext,
  ): Promise<ReadReturn | undefined> | ReadReturn | undefined;
};

export type ListedResource = Omit<ResourceDefinition, "read" | "cache">;

/** A resource template as a server takes it: made by `resourceTemplate()`. */
export type TemplateEntry = ResourceTemplateDefinition & {
  /** Parses the RFC 6570 template (throws on a malformed one); the catalog calls it once. */
  compile(): UriTemplate;
};

/**
 * A family of resources addressed by an RFC 6570 template; read handlers get typed variables.
 * The template parser comes with this function, so a server without templates does not carry it.
 */
export function resourceTemplate<T extends string>(
  definition: ResourceTemplateDefinition<T>,
): TemplateEntry {
  return {
    ...(definition as unknown as ResourceTemplateDefinition),
    compile: () => new UriTemplate(definition.uriTemplate),
  };
}

// Prompt arguments are strings on the wire, so a prompt's schema has string (or optional) fields.
type PromptArgs = z.core.$ZodObject<
  Record<string, z.core.$ZodType<string | undefined, string | undefined>>
>;

export type PromptDefinition<A extends PromptArgs = PromptArgs> = Display & {
  name: string;
  /** Arguments as a zod object of strings; descriptions come from `.describe()` (or `z.describe()`). */
  args?: A;
  /**
   * The argument list to advertise when there is no `args` schema (e.g. a prompt relayed from
   * elsewhere); only the presence of required arguments is checked.
   */
  arguments?: PromptArgument[];
  complete?: Partial<Record<keyof z.input<A> & string, Completer>>;
  get(args: z.output<A>, ctx: HandlerContext): Promise<PromptReturn> | PromptReturn;
};

/** A prompt template whose argument types are inferred from its zod schema. */
export function prompt<A extends PromptArgs>(definition: PromptDefinition<A>): PromptDefinition {
  return definition as unknown as PromptDefinition;
}

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
  /** Items per page: one number for every list, or per list (default 100). */
  pageSize?: number | Partial<Record<ListKey, number>>;
  /** Advertise the (deprecated) logging capability. */
  logging?: boolean;
  tools?: AnyTool[];
  resources?: ResourceDefinition[];
  resourceTemplates?: TemplateEntry[];
  prompts?: PromptDefinition[];
  /**
   * Serves `tasks/get`, `tasks/update` and `tasks/cancel` itself, for servers whose tasks run
   * elsewhere (the hub routes them to its upstreams); otherwise tasks live in task objects.
   */
  tasks?: TaskRouter;
  /**
   * Serves `subscriptions/listen` streams itself, e.g. `listenFromSource(source)` (the hub relays
   * its upstreams' streams); otherwise listen streams live in the listen bus.
   */
  listen?: ListenStreams;
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

/**
 * Opens one listen stream: `context` makes the handler context for a signal that aborts when the
 * stream ends.
 */
export type ListenStreams = (
  id: JsonRpcId,
  filter: ListenFilter,
  context: (signal: AbortSignal) => HandlerContext,
  settings: ListenSettings,
) => Response;

/**
 * Produces notifications for one listen stream until `ctx.signal` aborts: `emit` sends one
 * (the runtime tags it with the subscription id). Resolving ends the stream gracefully.
 */
export type ListenSource = (
  filter: ListenFilter,
  ctx: HandlerContext,
  emit: (notification: { method: string; params?: JsonObject }) => void,
) => Promise<void>;

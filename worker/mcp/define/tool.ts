import type * as z from "zod/mini";
import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { ToolAnnotations } from "../../../shared/protocol/primitives.ts";
import type { HandlerContext } from "../context/context.ts";
import type { ToolResult, ToolReturn } from "../results/tool.ts";
import type { Display } from "./display.ts";

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

/** A tool as the catalog stores it, its types erased (arguments are validated before `run`). */
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

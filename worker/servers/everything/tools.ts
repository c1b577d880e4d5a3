import * as z from "zod";
import { tool, toolResult, ToolError } from "../../mcp/index.ts";
import { sleep } from "../../../shared/sleep.ts";
import { MINIMAL_WAV, RED_PIXEL_PNG } from "./media.ts";
import { abortOf, clearAbort, recordAbort } from "./aborts.ts";
import { largeText } from "./large-text.ts";

/** A fixture anyone may call holds the call at most a minute. */
const MAX_FIXTURE_MS = 60_000;

/** The conformance fixtures come first: the suites call the first listed tool with `{}`. */
export const conformanceTools = [
  tool({
    name: "test_simple_text",
    description: "Returns a simple text response",
    run: () => "This is a simple text response for testing.",
  }),
  tool({
    name: "test_x_mcp_header",
    description: "Echoes arguments that travel as Mcp-Param-* headers too (x-mcp-header)",
    input: z.object({
      region: z
        .string()
        .describe("A region, mirrored in Mcp-Param-Region")
        .meta({ "x-mcp-header": "Region" }),
      priority: z
        .number()
        .int()
        .optional()
        .describe("Mirrored in Mcp-Param-Priority")
        .meta({ "x-mcp-header": "Priority" }),
      urgent: z
        .boolean()
        .optional()
        .describe("Mirrored in Mcp-Param-Urgent")
        .meta({ "x-mcp-header": "Urgent" }),
    }),
    run: ({ region, priority, urgent }) =>
      `region=${region} priority=${priority ?? "-"} urgent=${urgent ?? "-"}`,
  }),
  tool({
    name: "test_image_content",
    description: "Returns an image",
    run: () => ({ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }),
  }),
  tool({
    name: "test_audio_content",
    description: "Returns audio",
    run: () => ({ type: "audio", data: MINIMAL_WAV, mimeType: "audio/wav" }),
  }),
  tool({
    name: "test_embedded_resource",
    description: "Returns an embedded resource",
    run: () => ({
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    }),
  }),
  tool({
    name: "test_multiple_content_types",
    description: "Returns text, an image and an embedded resource",
    run: () => [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: '{"test":"data","value":123}',
        },
      },
    ],
  }),
  tool({
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 (out of 100), then returns the progress token",
    run: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100, `Completed step ${step} of 100`);
        if (step < 100) await sleep(50, ctx.signal);
      }
      return String(ctx.request.progressToken ?? "no progress token");
    },
  }),
  tool({
    name: "test_tool_with_logging",
    description: "Sends three info log messages while it runs",
    run: async (_args, ctx) => {
      for (const message of [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
      ]) {
        ctx.log("info", message);
        await sleep(50, ctx.signal);
      }
      return "Tool with logging executed successfully";
    },
  }),
  tool({
    name: "test_error_handling",
    description: "Always fails, as a tool error the model can read",
    run: () => {
      throw new ToolError("This tool intentionally returns an error for testing");
    },
  }),
  tool({
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
    // The advertised schema uses keywords zod cannot produce; zod still checks the arguments.
    input: z
      .strictObject({
        name: z.string().optional(),
        address: z
          .object({ street: z.string().optional(), city: z.string().optional() })
          .optional(),
        contactMethod: z.enum(["phone", "email"]).optional(),
        phone: z.string().optional(),
        email: z.string().optional(),
      })
      .refine((a) => a.phone !== undefined || a.email !== undefined, "give a phone or an email")
      .refine(
        (a) => a.contactMethod !== "phone" || a.phone !== undefined,
        "contactMethod phone needs a phone",
      )
      .refine(
        (a) => a.contactMethod === "phone" || a.email !== undefined,
        "without contactMethod phone, an email is needed",
      ),
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
    run: (args) => `Received: ${JSON.stringify(args)}`,
  }),
  tool({
    name: "test_missing_capability",
    description:
      "Needs the client's sampling capability; without it the call is refused with -32021",
    requires: { sampling: {} },
    run: () => "Success",
  }),
  tool({
    name: "test_streaming_elicitation",
    description: "Answers on its own response stream without sending any request to the client",
    run: () => "Streaming complete",
  }),
  tool({
    name: "test_logging_tool",
    description: "Logs one message, which is sent only when the request set a log level",
    run: (_args, ctx) => {
      ctx.log("info", "Logging evaluated");
      return "Logging evaluated";
    },
  }),
];

/** Fixtures that announce a change on listen streams (subscriptions/listen). */
export const triggerTools = [
  tool({
    name: "test_trigger_tool_change",
    description: "Announces notifications/tools/list_changed to every listen stream of this server",
    run: async (_args, ctx) => {
      await ctx.notify.toolsListChanged();
      return "Mutation triggered";
    },
  }),
  tool({
    name: "test_trigger_prompt_change",
    description:
      "Announces notifications/prompts/list_changed to every listen stream of this server",
    run: async (_args, ctx) => {
      await ctx.notify.promptsListChanged();
      return "Mutation triggered";
    },
  }),
  tool({
    name: "test_trigger_resource_update",
    description:
      "Announces notifications/resources/updated for a URI (default test://watched-resource)",
    input: z.object({ uri: z.string().default("test://watched-resource") }),
    run: async ({ uri }, ctx) => {
      await ctx.notify.resourceUpdated(uri);
      return `Announced an update of ${uri}`;
    },
  }),
];

/** Tools that show the rest of the runtime: structured output, long work, cancellation. */
export const featureTools = [
  tool({
    name: "add_numbers",
    title: "Add numbers",
    description: "Adds two numbers; the result is structured content with an output schema",
    input: z.object({
      a: z.number().describe("First addend"),
      b: z.number().describe("Second addend"),
    }),
    output: z.object({ sum: z.number() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run: ({ a, b }) => ({ sum: a + b }),
  }),
  tool({
    name: "list_primes",
    title: "List primes",
    description:
      "Lists the primes below a bound; the structured result is an array (2026 clients only)",
    input: z.object({
      below: z.number().int().min(2).max(10_000).describe("Exclusive upper bound"),
    }),
    output: z.array(z.number().int()),
    annotations: { readOnlyHint: true },
    run: ({ below }) => {
      const primes: number[] = [];
      for (let n = 2; n < below; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
      return primes;
    },
  }),
  tool({
    name: "test_slow_counter",
    title: "Slow counter",
    description:
      "Counts to `steps`, one step per `delayMs`, reporting progress; closing the stream cancels it",
    input: z.object({
      steps: z.number().int().min(1).max(1000).default(10),
      delayMs: z.number().int().min(0).max(10_000).default(100),
      label: z
        .string()
        .max(200)
        .default("default")
        .describe("Name to look the call up with test_abort_status"),
    }),
    run: async ({ steps, delayMs, label }, ctx) => {
      if (steps * delayMs > MAX_FIXTURE_MS)
        throw new ToolError(`A count may take at most 60 s (steps × delayMs ≤ ${MAX_FIXTURE_MS}).`);
      clearAbort(label);
      for (let step = 1; step <= steps; step++) {
        try {
          await sleep(delayMs, ctx.signal);
        } catch {
          recordAbort(label, step);
          throw new ToolError(`Cancelled at step ${step} of ${steps}.`);
        }
        ctx.progress(step, steps, `Step ${step} of ${steps}`);
      }
      return toolResult({ content: [{ type: "text", text: `Counted to ${steps}` }] });
    },
  }),
  tool({
    name: "test_abort_status",
    title: "Abort status",
    description:
      "Tells whether the last test_slow_counter call with this label was cancelled, and at which step",
    input: z.object({ label: z.string().max(200).default("default") }),
    annotations: { readOnlyHint: true },
    run: ({ label }) => {
      const abort = abortOf(label);
      return abort === undefined
        ? `not aborted: ${label}`
        : `aborted: ${label} at step ${abort.step} (t=${abort.at})`;
    },
  }),
  largeText,
];

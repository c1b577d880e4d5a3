import type { Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  ClientCapabilitiesSchema,
  ServerCapabilitiesSchema,
} from "../../../shared/protocol/capabilities.ts";
import * as content from "../../../shared/protocol/content.ts";
import * as input from "../../../shared/protocol/input.ts";
import * as requests from "../../../shared/protocol/input-requests.ts";
import * as messages from "../../../shared/protocol/messages.ts";
import * as notifications from "../../../shared/protocol/notifications.ts";
import * as params from "../../../shared/protocol/params.ts";
import * as primitives from "../../../shared/protocol/primitives.ts";
import * as results from "../../../shared/protocol/results.ts";
import { haveSchemas, officialDefs } from "../../support/wire-schema.ts";

/** Where a schema here knowingly differs from the official one, and why. */
type Differences = {
  /** Members the official schema requires that are optional here. */
  optional?: string[];
  /** Members the official schema defines that are read elsewhere, not by this schema. */
  omitted?: string[];
  /** Members defined here beyond the official schema. */
  added?: string[];
};

// The client reads results of both eras with one schema: 2025 results have no resultType.
const RESULT: Differences = { optional: ["resultType"] };
// ...and 2025 results carry no cache hints (absent hints mean "do not cache").
const CACHEABLE: Differences = { optional: ["resultType", "ttlMs", "cacheScope"] };
// A request's `_meta` is its envelope, which the era reads before the params are parsed.
const PARAMS: Differences = { omitted: ["_meta"] };
// Notifications and answers may carry `_meta`; their loose objects keep it without naming it.
const NOTIFICATION: Differences = { omitted: ["_meta"] };
const ANSWER: Differences = { omitted: ["_meta"] };
// `taskIds` is the tasks extension's member of the listen filter.
const FILTER: Differences = { added: ["taskIds"] };
// The JSON-RPC envelope (`jsonrpc`) is checked when the message is read, before this schema.
const ACK: Differences = { omitted: ["jsonrpc"] };
// 2025-11-25 tools say whether they run as tasks (`execution.taskSupport`); the client keeps it.
const TOOL: Differences = { added: ["execution"] };

// The tasks extension (tasks.ts) has no schema among the official files, so it is not here.
type Pair = [official: string, ours: z.core.$ZodType, differences?: Differences];
const PAIRS: Pair[] = [
  ["Icon", content.IconSchema],
  ["Annotations", content.AnnotationsSchema],
  ["TextResourceContents", content.TextResourceContentsSchema],
  ["BlobResourceContents", content.BlobResourceContentsSchema],
  ["TextContent", content.TextContentSchema],
  ["ImageContent", content.ImageContentSchema],
  ["AudioContent", content.AudioContentSchema],
  ["ResourceLink", content.ResourceLinkSchema],
  ["EmbeddedResource", content.EmbeddedResourceSchema],
  ["ContentBlock", content.ContentBlockSchema],
  ["ToolAnnotations", primitives.ToolAnnotationsSchema],
  ["Tool", primitives.ToolSchema, TOOL],
  ["Resource", primitives.ResourceSchema],
  ["ResourceTemplate", primitives.ResourceTemplateSchema],
  ["PromptArgument", primitives.PromptArgumentSchema],
  ["Prompt", primitives.PromptSchema],
  ["PromptMessage", primitives.PromptMessageSchema],
  ["Implementation", primitives.ImplementationSchema],
  ["ClientCapabilities", ClientCapabilitiesSchema],
  ["ServerCapabilities", ServerCapabilitiesSchema],
  ["DiscoverResult", results.DiscoverResultSchema, CACHEABLE],
  ["ListToolsResult", results.ListToolsResultSchema, CACHEABLE],
  ["ListPromptsResult", results.ListPromptsResultSchema, CACHEABLE],
  ["ListResourcesResult", results.ListResourcesResultSchema, CACHEABLE],
  ["ListResourceTemplatesResult", results.ListResourceTemplatesResultSchema, CACHEABLE],
  ["CallToolResult", results.CallToolResultSchema, RESULT],
  ["ReadResourceResult", results.ReadResourceResultSchema, CACHEABLE],
  ["GetPromptResult", results.GetPromptResultSchema, RESULT],
  ["CompleteResult", results.CompleteResultSchema, RESULT],
  ["EmptyResult", results.EmptyResultSchema, RESULT],
  ["PaginatedRequestParams", params.ListParamsSchema, PARAMS],
  ["CallToolRequestParams", params.CallToolParamsSchema, PARAMS],
  ["GetPromptRequestParams", params.GetPromptParamsSchema, PARAMS],
  ["ReadResourceRequestParams", params.ReadResourceParamsSchema, PARAMS],
  ["CompleteRequestParams", params.CompleteParamsSchema, PARAMS],
  ["SubscriptionFilter", params.ListenFilterSchema, FILTER],
  ["CancelledNotificationParams", params.CancelledParamsSchema, NOTIFICATION],
  ["ProgressNotificationParams", notifications.ProgressParamsSchema, NOTIFICATION],
  ["LoggingMessageNotificationParams", notifications.LogMessageParamsSchema, NOTIFICATION],
  ["SubscriptionsAcknowledgedNotification", notifications.SubscriptionAcknowledgedSchema, ACK],
  ["ElicitRequestParams", requests.ElicitParamsSchema],
  ["CreateMessageRequestParams", requests.CreateMessageParamsSchema],
  ["InputRequiredResult", requests.InputRequiredResultSchema],
  ["ElicitResult", input.ElicitResultSchema],
  ["CreateMessageResult", input.CreateMessageResultSchema, ANSWER],
  ["ListRootsResult", input.ListRootsResultSchema],
  ["JSONRPCRequest", messages.JsonRpcRequestSchema],
  ["JSONRPCNotification", messages.JsonRpcNotificationSchema],
  ["JSONRPCResultResponse", messages.JsonRpcResultResponseSchema],
  ["JSONRPCErrorResponse", messages.JsonRpcErrorResponseSchema],
  ["Error", messages.JsonRpcErrorObjectSchema],
];

type Shape = { properties: string[]; required: string[] };
function shapeOf(schema: Schema, defs: Record<string, Schema>): Shape[] {
  const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/$defs/", "") : undefined;
  if (ref) return shapeOf(defs[ref] ?? {}, defs);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) return branches.flatMap((b) => shapeOf(b, defs));
  return [
    {
      properties: Object.keys((schema.properties as object | undefined) ?? {}).sort(),
      required: [...((schema.required as string[] | undefined) ?? [])].sort(),
    },
  ];
}

/** The official shape as this schema should see it, given its documented differences. */
function expected(official: Shape, differences: Differences = {}): Shape {
  const { optional = [], omitted = [], added = [] } = differences;
  const unlisted = (member: string) => !omitted.includes(member);
  return {
    properties: [...official.properties.filter(unlisted), ...added].sort(),
    required: official.required.filter((m) => unlisted(m) && !optional.includes(m)).sort(),
  };
}

const defs = officialDefs("2026") ?? {};
describe.runIf(haveSchemas())("shared/protocol against the official 2026-07-28 schema", () => {
  it.each(PAIRS)("%s defines and requires the official members", (name, ours, differences) => {
    const official = shapeOf(defs[name] ?? {}, defs);
    const mine = shapeOf(z.toJSONSchema(ours, { unrepresentable: "any" }) as Schema, {});
    expect(mine).toEqual(official.map((shape) => expected(shape, differences)));
  });

  // A documented difference that is no longer one would hide a real disagreement.
  it.each(PAIRS.filter(([, , differences]) => differences))(
    "%s differs only where its notes say",
    (name, _ours, differences) => {
      const [official] = shapeOf(defs[name] ?? {}, defs);
      const { optional = [], omitted = [], added = [] } = differences ?? {};
      expect(optional.filter((m) => !official?.required.includes(m))).toEqual([]);
      expect(omitted.filter((m) => !official?.properties.includes(m))).toEqual([]);
      expect(added.filter((m) => official?.properties.includes(m))).toEqual([]);
    },
  );
});

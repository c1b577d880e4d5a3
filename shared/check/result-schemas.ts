import type * as z from "zod/mini";
import { InputRequiredResultSchema } from "../protocol/input-requests.ts";
import { LogMessageParamsSchema, ProgressParamsSchema } from "../protocol/notifications.ts";
import {
  CallToolResultSchema,
  CompleteResultSchema,
  DiscoverResultSchema,
  EmptyResultSchema,
  GetPromptResultSchema,
  InitializeResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
} from "../protocol/results.ts";

/** The schema of each method's complete result, from shared/protocol. */
export const RESULT_SCHEMAS: Readonly<Record<string, z.ZodMiniType>> = {
  "server/discover": DiscoverResultSchema,
  initialize: InitializeResultSchema,
  ping: EmptyResultSchema,
  "tools/list": ListToolsResultSchema,
  "prompts/list": ListPromptsResultSchema,
  "resources/list": ListResourcesResultSchema,
  "resources/templates/list": ListResourceTemplatesResultSchema,
  "tools/call": CallToolResultSchema,
  "resources/read": ReadResourceResultSchema,
  "prompts/get": GetPromptResultSchema,
  "completion/complete": CompleteResultSchema,
};

/** The schema of an `input_required` result (the methods that may ask for input). */
export const INPUT_REQUIRED_SCHEMA: z.ZodMiniType = InputRequiredResultSchema;

/** The schema of each notification's params a reply stream may carry. */
export const NOTIFICATION_SCHEMAS: Readonly<Record<string, z.ZodMiniType>> = {
  "notifications/progress": ProgressParamsSchema,
  "notifications/message": LogMessageParamsSchema,
};

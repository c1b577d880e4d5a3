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
import { CreateTaskResultSchema, GetTaskResultSchema } from "../protocol/tasks.ts";

/** How the result of one method is checked. */
export type ResultRule = {
  schema: z.core.$ZodType;
  /** 2026 results of this method must carry `ttlMs` and `cacheScope` when complete. */
  cacheable?: boolean;
  /** The method may answer `input_required` (MRTR). */
  inputRounds?: boolean;
  /** The method may answer with a task (`resultType: "task"`). */
  tasks?: boolean;
};

/** Result rules by request method; a method missing here has no known result shape. */
export const RESULT_RULES: Readonly<Record<string, ResultRule>> = {
  "server/discover": { schema: DiscoverResultSchema, cacheable: true },
  "tools/list": { schema: ListToolsResultSchema, cacheable: true },
  "prompts/list": { schema: ListPromptsResultSchema, cacheable: true },
  "resources/list": { schema: ListResourcesResultSchema, cacheable: true },
  "resources/templates/list": { schema: ListResourceTemplatesResultSchema, cacheable: true },
  "resources/read": { schema: ReadResourceResultSchema, cacheable: true, inputRounds: true },
  "tools/call": { schema: CallToolResultSchema, inputRounds: true, tasks: true },
  "prompts/get": { schema: GetPromptResultSchema, inputRounds: true },
  "completion/complete": { schema: CompleteResultSchema },
  "tasks/get": { schema: GetTaskResultSchema },
  "tasks/update": { schema: EmptyResultSchema },
  "tasks/cancel": { schema: EmptyResultSchema },
  "subscriptions/listen": { schema: EmptyResultSchema },
  initialize: { schema: InitializeResultSchema },
  ping: { schema: EmptyResultSchema },
  "logging/setLevel": { schema: EmptyResultSchema },
  "resources/subscribe": { schema: EmptyResultSchema },
  "resources/unsubscribe": { schema: EmptyResultSchema },
};

/** The schemas of the non-complete result types. */
export const INPUT_REQUIRED_SCHEMA = InputRequiredResultSchema;
export const TASK_SCHEMA = CreateTaskResultSchema;

/** The schema of each method's complete result. */
export const RESULT_SCHEMAS: Readonly<Record<string, z.core.$ZodType>> = Object.fromEntries(
  Object.entries(RESULT_RULES).map(([method, rule]) => [method, rule.schema]),
);

/** The schema of each notification's params a reply stream may carry. */
export const NOTIFICATION_SCHEMAS: Readonly<Record<string, z.core.$ZodType>> = {
  "notifications/progress": ProgressParamsSchema,
  "notifications/message": LogMessageParamsSchema,
};

// The client's public surface; everything else in this folder is internal.
export { connect } from "./connect.ts";
export { McpClient } from "./client.ts";
export { McpError, hasRpcCode, type McpErrorKind } from "./errors.ts";
export type { Era } from "../protocol/versions.ts";
export type { EraTraits } from "./era/era.ts";
export type { ServerDescription } from "./description.ts";
export type { ToolArguments } from "./call-tool.ts";
export { Subscription, type ListenEnd } from "./listen/subscription.ts";
export { TaskHandle } from "./tasks/task-handle.ts";
export type { AwaitTaskOptions } from "./tasks/await-task.ts";
export type { BackgroundState, BackgroundStatus, ServerNotification } from "./background/types.ts";
export type {
  CacheMode,
  CachedRequestOptions,
  CallToolOptions,
  ClientOptions,
  FetchLike,
  InProcessReply,
  InputContext,
  InputHandlers,
  InputRoundOptions,
  ListOptions,
  Reply,
  RequestOptions,
  SendLike,
  Source,
  WireEvent,
} from "./options.ts";
export type {
  ListenFilter,
  ListenNotification,
  LogMessageParams,
  Progress,
} from "../protocol/notifications.ts";
export type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "../protocol/results.ts";
export type { CreateMessageParams, ElicitParams } from "../protocol/input-requests.ts";
export type { Task, TaskStatus } from "../protocol/tasks.ts";
export { TASKS_EXTENSION } from "../protocol/capabilities.ts";

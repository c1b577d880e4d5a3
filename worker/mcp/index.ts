// The public server API of edgemcp (`import { ... } from "edgemcp/server"`).

// Defining a server.
export { defineServer, McpServer } from "./server/server.ts";
export { DefinitionError } from "./catalog/problems.ts";
export { tool } from "./define/tool.ts";
export { toolResult, ToolResult } from "./results/tool.ts";
export { serializedText, SerializedText } from "./results/serialized-text.ts";
export type { AnyTool, ToolDefinition } from "./define/tool.ts";
export type { ToolReturn } from "./results/tool.ts";
export { prompt, resource, resourceTemplate } from "./methods/entries.ts";
export type { ReadReturn } from "./results/resource.ts";
export type {
  Completer,
  CompletionReturn,
  ListedResource,
  ResourceDefinition,
  ResourceEntry,
  ResourceTemplateDefinition,
  TemplateEntry,
} from "./define/resource.ts";
export type { PromptDefinition, PromptEntry } from "./define/prompt.ts";
export type { PromptReturn } from "./results/prompt.ts";
export type { CacheHint, ListKey, ServerDefinition, TaskRouter } from "./define/definition.ts";
export type { JsonSchemaConverter } from "./schema/json-schema.ts";
export type {
  ChangeNotifier,
  Envelope,
  HandlerContext,
  ListenEvent,
  Notify,
  RequestInfo,
} from "./context/context.ts";
export type { Era } from "../../shared/protocol/versions.ts";
export {
  elicit,
  elicitUrl,
  sample,
  listRoots,
  type Elicited,
  type InputRequest,
} from "./input/requests.ts";
export type { InputAnswers } from "./input/answers.ts";
export { inputRounds } from "./era/input-rounds.ts";
export type { InputRounds } from "./define/input.ts";
export { UriTemplate } from "../../shared/uri-template.ts";
export { ErrorCode, RpcError, ToolError } from "../../shared/protocol/errors.ts";
export type { ContentBlock, ResourceContents } from "../../shared/protocol/content.ts";
export type { PromptMessage, ToolAnnotations } from "../../shared/protocol/primitives.ts";
export { sealing } from "./catalog/sealing.ts";
export type { Handles, Sealing, Seals } from "./context/handles.ts";
export { HandleError, type HandleProblem } from "../state/sealer.ts";
export {
  bearerTokens,
  AuthError,
  type Authenticate,
  type AuthContext,
  type BearerErrorCode,
  type Caller,
} from "../auth/bearer.ts";

// Serving it: a Worker handler (mcpApp, the same as a Hono app, is `edgemcp/hono`).
export {
  mcpHandler,
  METADATA_PREFIX,
  resourceMetadataUrl,
  type McpAppOptions,
  type McpHandler,
} from "./handler.ts";
export {
  inProcessEntry,
  markInProcess,
  type DirectCall,
  type DirectEntry,
  type DirectReply,
  type InProcessCall,
  type InProcessEntry,
  type InProcessReply,
  type WorkerContext,
} from "./request/in-process.ts";
export type { LogSetting, RequestLog, RequestLogger } from "./observe/log.ts";
export {
  metadataResponse,
  protectedResourceMetadata,
  type ResourceMetadataOptions,
} from "../auth/metadata.ts";
export { accessPolicy, type AccessPolicyOptions, type PolicyRule } from "../auth/policy.ts";
export type { AnonymousAccess, PolicyEngine, StepUp } from "../auth/access.ts";
export { stepUpScope } from "../auth/step-up.ts";
export type {
  Cancellation,
  CallerTasks,
  Budget,
  BoundCoordination,
  CallerLimits,
  Coordination,
  CoordinationSettings,
  DurableCoordination,
  EndpointLimits,
  LimitSettings,
  Lease,
  Limits,
  ListenHub,
  ListenStream,
  ServerRequests,
  TaskLease,
  TaskStart,
  Tasks,
} from "./ports.ts";

// Building a proxy or gateway on top of other servers (the hub uses these, and nothing else).
export { DynamicServer } from "./server/dynamic.ts";
export type { ServeContext, Served } from "./server/server.ts";
export { ForwardedResult } from "./results/ready.ts";
export { InputRequiredSignal } from "./input/signal.ts";
export type { InputRelay } from "./input/relay.ts";
export { listenFromSource, listenStreams } from "./methods/listen.ts";
export { routedTasks, storedTasks } from "./methods/tasks.ts";
export type { FeatureCall, FeatureRoute, Listening, ServerFeature } from "./define/features.ts";
export type { ListenSettings, ListenSource } from "./listen/source.ts";
export { honouredFilter } from "./listen/filter.ts";
export { upstreamCapabilities, upstreamLogLevel } from "./era/index.ts";
export { anonymousAddress } from "./context/handler-context.ts";
export { serveMessage } from "./pipeline.ts";
export { directEntry } from "./dispatch.ts";
export type { Framed, Runtime, Settings } from "./runtime.ts";

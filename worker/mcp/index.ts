// The public server API of edgemcp (`import { ... } from "edgemcp/server"`).
export { defineServer, McpServer } from "./server.ts";
export { tool, resource, resourceTemplate, prompt } from "./define.ts";
export type {
  CacheHint,
  Completer,
  ListedResource,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  TemplateEntry,
  ServerDefinition,
  ToolDefinition,
} from "./define.ts";
export { toolResult, ToolResult } from "./results.ts";
export type { CompletionReturn, PromptReturn, ReadReturn, ToolReturn } from "./results.ts";
export type { HandlerContext, RequestInfo } from "./context.ts";
export type { Era } from "../../shared/protocol/versions.ts";
export { mcpHandler, type McpAppOptions, type McpHandler, type WorkerContext } from "./app.ts";
// mcpApp (the endpoint as a Hono app) is in ./hono.ts, `edgemcp/hono`.
export { UriTemplate } from "../../shared/uri-template.ts";
export { ErrorCode, RpcError, ToolError } from "../../shared/protocol/errors.ts";
export type { ContentBlock, ResourceContents } from "../../shared/protocol/content.ts";
export type { PromptMessage, ToolAnnotations } from "../../shared/protocol/primitives.ts";
export {
  elicit,
  elicitUrl,
  sample,
  listRoots,
  type Elicited,
  type InputRequest,
} from "./input/requests.ts";
export { Handles } from "../state/handles.ts";
export { HandleError, type HandleProblem } from "../state/sealer.ts";
export { bearerTokens, AuthError, type Authenticate, type Caller } from "../auth/bearer.ts";

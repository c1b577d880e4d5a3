import { complete } from "./completion.ts";
import type { Route } from "./method.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { listResources, listResourceTemplates, readResource } from "./resources.ts";
import { callTool, listTools } from "./tools.ts";

/** The methods both eras serve; `asks` marks those whose handlers may ask the client for input. */
export const COMMON_ROUTES = {
  "tools/list": { run: listTools },
  "tools/call": { run: callTool, asks: true },
  "resources/list": { run: listResources },
  "resources/read": { run: readResource, asks: true },
  "resources/templates/list": { run: listResourceTemplates },
  "prompts/list": { run: listPrompts },
  "prompts/get": { run: getPrompt, asks: true },
  "completion/complete": { run: complete },
} as const satisfies Record<string, Route>;

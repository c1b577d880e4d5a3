import type { Route } from "./method.ts";
import { callTool, listTools } from "./tools.ts";

/** The methods a definition's prompts, resources and templates bring with their builders. */
export type EntryMethod =
  `prompts/${string}` | `resources/${"list" | "read" | "templates/list"}` | "completion/complete";

/**
 * The methods both eras serve for every server; `asks` marks those whose handlers may ask the
 * client for input. Prompts, resources and completion come with their builders (`entries.ts`).
 */
export const COMMON_ROUTES = {
  "tools/list": { run: listTools },
  "tools/call": { run: callTool, asks: true },
} as const satisfies Record<string, Route>;

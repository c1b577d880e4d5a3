import type { McpServer } from "../mcp/index.ts";
import { analytics } from "./analytics/index.ts";
import { everything } from "./everything/index.ts";
import { notes } from "./notes/index.ts";
import { ops } from "./ops/index.ts";

/** The servers this Worker mounts, each at `/mcp/<name>`. */
export const servers: Readonly<Record<string, McpServer>> = {
  everything,
  analytics,
  notes,
  ops,
};

import { defineServer, sealing } from "../../mcp/index.ts";
import { prompts } from "./prompts.ts";
import { resourceTemplates } from "./resources.ts";
import { tools } from "./tools.ts";

/**
 * The analytics server: read-only SQL over a D1 database of users, orders, incidents and error
 * logs, with sealed cursors and analysis handles, table resources and an incident triage prompt.
 */
export const analytics = defineServer({
  name: "edgemcp-analytics",
  version: "0.1.0",
  title: "Analytics (D1)",
  description: "Read-only SQL and incident analysis over a Cloudflare D1 database.",
  instructions:
    "Read the table schemas (resources d1://analytics/tables/{table}/schema) before writing SQL. " +
    "execute_query runs one read-only statement and pages large results. For error-log questions, " +
    "open_analysis then analysis_summary / analysis_top_errors; triage_incident prepares an incident review.",
  cache: { ttlMs: 300_000, cacheScope: "public" },
  tools,
  // Query cursors and analysis handles are sealed (ctx.handles).
  sealing,
  resourceTemplates,
  prompts,
});

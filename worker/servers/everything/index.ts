import { defineServer, inputRounds, listenStreams } from "../../mcp/index.ts";
import { prompts } from "./prompts.ts";
import { resources, resourceTemplates } from "./resources.ts";
import { conformanceTools, featureTools, triggerTools } from "./tools.ts";
import { inputPrompts, inputTools } from "./input-tools.ts";
import { clientRequestTools } from "./client-request-tools.ts";
import { formTools } from "./form-tools.ts";

/**
 * The `everything` server: every feature of the runtime, and the fixtures the official
 * conformance suites call.
 */
export const everything = defineServer({
  name: "edgemcp-everything",
  version: "0.1.0",
  title: "edgemcp everything server",
  description:
    "Exercises every MCP feature edgemcp implements, including the conformance fixtures.",
  instructions:
    "Test server: tools named test_* are conformance fixtures; add_numbers and list_primes show structured output.",
  logging: true,
  cache: { ttlMs: 60_000, cacheScope: "public" },
  // Small resource pages so clients must follow cursors; tools stay on one page for the suites.
  pageSize: { resources: 10 },
  tools: [
    ...conformanceTools,
    ...inputTools,
    ...clientRequestTools,
    ...triggerTools,
    ...featureTools,
    ...formTools,
  ],
  resources,
  resourceTemplates,
  prompts: [...prompts, ...inputPrompts],
  // Its input tools and prompts ask the client (elicitation, sampling, roots).
  input: inputRounds,
  // Its trigger tools announce list and resource changes on listen streams.
  listen: listenStreams,
});

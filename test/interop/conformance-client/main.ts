// edgemcp's client under the official conformance suite's client scenarios: the suite runs
// `npm run conformance-client -- <server-url>` with MCP_CONFORMANCE_SCENARIO (and, for some
// scenarios, MCP_CONFORMANCE_CONTEXT and MCP_CONFORMANCE_PROTOCOL_VERSION) in the environment.
import { connect, type ClientOptions, type McpClient } from "../../../shared/client/index.ts";
import { AUTH_SCENARIOS, authOptions } from "./auth.ts";
import { SCENARIOS, type Run } from "./scenarios.ts";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;

/** 2025 versions use the initialize handshake; 2026 ones the stateless lifecycle. */
const legacy = version !== undefined && version < "2026";

function connectTo(server: string, extra: ClientOptions = {}): Promise<McpClient> {
  return connect(server, {
    clientInfo: { name: "edgemcp-conformance-client", version: "0.1.0" },
    ...(legacy ? { handshake: "initialize" as const } : {}),
    ...(version && !legacy ? { versions: [version] } : {}),
    ...extra,
  });
}

async function main(): Promise<void> {
  if (!url) throw new Error("usage: conformance-client <server-url>");
  const run: Run | undefined = SCENARIOS[scenario];
  if (run) return run(url, connectTo);
  if (AUTH_SCENARIOS.has(scenario)) {
    const options = authOptions(url, scenario, process.env.MCP_CONFORMANCE_CONTEXT);
    const client = await connectTo(url, { fetch: options.fetch });
    await client.listTools();
    await client.callTool("test-tool", {});
    await client.close();
    return;
  }
  throw new Error(`No handler for scenario "${scenario}".`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    process.exit(1);
  },
);

import type { ClientOptions, McpClient } from "../../../shared/client/index.ts";
import type { ElicitParams } from "../../../shared/protocol/input-requests.ts";

/** Connects the way main.ts does, for the negotiated era, with extra options. */
export type ConnectTo = (url: string, extra?: ClientOptions) => Promise<McpClient>;
export type Run = (url: string, connectTo: ConnectTo) => Promise<void>;

type JsonSchema = {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
};

/** A plausible value for a schema: its const, default, example or first enum member, else by type. */
function sample(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "object":
      return sampleObject(schema);
    case "array":
      return [];
    default:
      return "test";
  }
}

/** Sample arguments: the required properties only, so optional ones stay absent. */
function sampleObject(schema: JsonSchema): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {}).filter(([name]) => required.has(name));
  return Object.fromEntries(properties.map(([name, property]) => [name, sample(property)]));
}

/** Fills what the user left out of an elicitation with the schema's defaults (SEP-1034). */
type Answer = Record<string, string | number | boolean | string[]>;

function withDefaults(params: ElicitParams, content: Answer): Answer {
  const schema = "requestedSchema" in params ? (params.requestedSchema as JsonSchema) : {};
  const defaults = Object.entries(schema.properties ?? {}).filter(
    ([, property]) => property.default !== undefined,
  );
  const filled: Answer = {};
  for (const [name, property] of defaults) {
    const value = property.default;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      filled[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      filled[name] = value;
  }
  return { ...filled, ...content };
}

async function settle(label: string, work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    console.log(`${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Uses everything the server offers: each tool with sample arguments, each resource, each prompt. */
const explore: Run = async (url, connectTo) => {
  const client = await connectTo(url, {
    handlers: {
      elicitation: async (params) => ({ action: "accept", content: withDefaults(params, {}) }),
    },
  });
  const tools = await client.listTools();
  for (const tool of tools.result.tools) {
    await settle(
      `tools/call ${tool.name}`,
      client.callTool(tool.name, sampleObject(tool.inputSchema as JsonSchema)),
    );
  }
  if (client.server.capabilities.resources) {
    const resources = await client.listResources();
    for (const resource of resources.result.resources)
      await settle(`resources/read ${resource.uri}`, client.readResource(resource.uri));
  }
  if (client.server.capabilities.prompts) {
    const prompts = await client.listPrompts();
    for (const prompt of prompts.result.prompts) {
      const args = Object.fromEntries(
        (prompt.arguments ?? []).map((argument) => [argument.name, "test"]),
      );
      await settle(`prompts/get ${prompt.name}`, client.getPrompt(prompt.name, args));
    }
  }
  await client.close();
};

/** Lists tools only: the scenario's server answers nothing else. */
const listOnly: Run = async (url, connectTo) => {
  const client = await connectTo(url);
  await client.listTools();
  await client.close();
};

/** Calls the first tool with the arguments the suite's add tool takes. */
const callFirstTool: Run = async (url, connectTo) => {
  const client = await connectTo(url);
  const tools = await client.listTools();
  const tool = tools.result.tools[0];
  if (tool) await client.callTool(tool.name, { a: 2, b: 3 });
  await client.close();
};

/**
 * MRTR with request state: while answering the echo tool's elicitation, an unrelated tool is
 * called, which must carry none of the first call's state.
 */
const requestState: Run = async (url, connectTo) => {
  // The handler runs only once a call is under way, after `client` is assigned.
  const client: McpClient = await connectTo(url, {
    handlers: {
      elicitation: async () => {
        await settle("tools/call test_mrtr_unrelated", client.callTool("test_mrtr_unrelated", {}));
        return { action: "accept", content: { confirmed: true } };
      },
    },
  });
  await client.listTools();
  await client.callTool("test_mrtr_echo_state", {});
  await client.callTool("test_mrtr_no_state", {});
  await client.callTool("test_mrtr_no_result_type", {});
  await client.close();
};

/**
 * x-mcp-header values of every kind: plain, numbers, booleans, empty, a name like a standard
 * header, unannotated, and values that need Base64; then a call that leaves one out (null).
 */
const customHeaders: Run = async (url, connectTo) => {
  const client = await connectTo(url);
  await client.listTools();
  await client.callTool("test_custom_headers", {
    region: "us-west-1",
    priority: 42,
    verbose: false,
    debug: true,
    empty_val: "",
    method_val: "custom",
    float_val: 1.5,
    non_ascii_val: "Zürich 東京",
  });
  await client.callTool("test_custom_headers_null", { region: "eu", priority: 1, verbose: null });
  await client.close();
};

/** Echoes a tool's input schema back as the client received it, keywords and all. */
const schemaPreservation: Run = async (url, connectTo) => {
  const client = await connectTo(url);
  const tools = await client.listTools();
  const focal = tools.result.tools.find((tool) => tool.name === "json_schema_2020_12_tool");
  if (!focal) throw new Error("json_schema_2020_12_tool is not listed");
  await client.callTool("json_schema_echo", { schema: focal.inputSchema });
  await client.close();
};

/** The client scenarios that need no sign-in, by name. */
export const SCENARIOS: Record<string, Run> = {
  initialize: callFirstTool,
  tools_call: callFirstTool,
  "request-metadata": explore,
  "json-schema-ref-no-deref": listOnly,
  "json-schema-2020-12-preservation": schemaPreservation,
  "sep-2322-client-request-state": requestState,
  "http-standard-headers": explore,
  "http-custom-headers": customHeaders,
  "http-invalid-tool-headers": explore,
  "elicitation-sep1034-client-defaults": explore,
  "sse-retry": explore,
};

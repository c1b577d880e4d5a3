import { postCancel, watchCancel } from "../mcp/cancel.ts";
import { legacyInput } from "../mcp/input/legacy-input.ts";
import { TaskService } from "../mcp/tasks/service.ts";
import type { Coordination, DurableBindings, DurableDrivers } from "./bindings.ts";
import { postMessage } from "./rendezvous-client.ts";

const DRIVERS: DurableDrivers = {
  tasks: (namespace, server, subject) => new TaskService(namespace, server, subject),
  watchCancel,
  postCancel,
  postAnswer: (namespace, id, body) => postMessage(namespace, `response:${id}`, body),
  legacyInput,
};

/**
 * The Durable Objects a server coordinates through, for `mcpHandler(server, { durable })`:
 * `durable: (env) => durableObjects({ rendezvous: env.MCP_RENDEZVOUS, bus: env.MCP_BUS,
 * tasks: env.MCP_TASKS })`. Each binding is optional.
 */
export function durableObjects(bindings: DurableBindings): Coordination {
  return { ...bindings, drivers: DRIVERS };
}

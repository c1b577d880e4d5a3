import type { McpClient } from "../../shared/client/index.ts";
import type { Hub } from "../../shared/hub/hub.ts";
import type { HandlerContext } from "../mcp/index.ts";
import { upstreamFailure, type Alias } from "./errors.ts";

/** The pieces forwarding needs, shared by the hub's tools, prompts, resources and tasks. */
export type HubRuntime = {
  hub: Hub;
  clientFor(upstream: string, ctx: HandlerContext): Promise<McpClient>;
  /** How long a forwarded call may stay silent before it fails. */
  idleMs: number;
};

/** Runs one forwarded request against an upstream, turning its failures into the hub's. */
export async function withUpstream<T>(
  runtime: HubRuntime,
  upstream: string,
  ctx: HandlerContext,
  forTool: boolean,
  work: (client: McpClient) => Promise<T>,
  alias?: Alias,
): Promise<T> {
  try {
    return await work(await runtime.clientFor(upstream, ctx));
  } catch (error) {
    throw upstreamFailure(upstream, error, forTool, alias);
  }
}

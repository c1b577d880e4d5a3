import type { McpClient } from "../../shared/client/index.ts";
import type { Hub } from "../../shared/hub/hub.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { HandlerContext } from "../mcp/index.ts";
import type { ClientPool } from "./client-pool.ts";
import { DirectUpstream, type DirectTarget, type Upstream } from "./direct.ts";
import { upstreamFailure, type Alias } from "./errors.ts";
import { principalOf } from "./principal.ts";
import {
  credentialHeader,
  directTarget,
  refusalFor,
  sendsAddress,
  type UpstreamConfig,
} from "./upstreams.ts";

/** The pieces forwarding needs, shared by the hub's tools, prompts, resources and tasks. */
export type HubRuntime = {
  hub: Hub;
  /** A connected client (listen streams need one). */
  clientFor(upstream: string, ctx: HandlerContext): Promise<McpClient>;
  /** Where a caller's requests go: a server of this Worker directly, else a client. */
  upstreamFor(upstream: string, ctx: HandlerContext): Promise<Upstream>;
  /** How long a forwarded call may stay silent before it fails. */
  idleMs: number;
};

/**
 * How the hub reaches its upstreams for a caller, once it has checked that this upstream may be
 * called for it: a server of this Worker directly through its method table, with what a client
 * would have sent it (the credentials this upstream is given, an anonymous caller's address,
 * the caller's capabilities); any other upstream with a pooled client.
 */
export function hubRuntime(
  hub: Hub,
  list: UpstreamConfig[],
  pool: ClientPool,
  idleMs: number,
): HubRuntime {
  const configs = new Map(list.map((u) => [u.name, u]));
  const direct = new Map<string, DirectTarget>();
  for (const upstream of list) {
    const target = directTarget(upstream);
    if (target) direct.set(upstream.name, target);
  }
  const checked = (upstream: string, ctx: HandlerContext) => {
    const config = configs.get(upstream);
    const refusal = config && refusalFor(config, ctx.caller);
    if (refusal) throw new RpcError(ErrorCode.InvalidRequest, refusal);
    return config;
  };
  return {
    hub,
    idleMs,
    clientFor: (upstream, ctx) => {
      checked(upstream, ctx);
      return pool.client(upstream, principalOf(ctx), ctx.env, ctx.signal);
    },
    upstreamFor: async (upstream, ctx) => {
      const config = checked(upstream, ctx);
      const target = direct.get(upstream);
      const principal = principalOf(ctx);
      if (!config || !target) return pool.client(upstream, principal, ctx.env, ctx.signal);
      const credentials = credentialHeader(config, ctx.env, principal.credential);
      const address = sendsAddress(config) ? principal.address : undefined;
      const { capabilities } = principal;
      return new DirectUpstream(target, { credentials, address, capabilities }, ctx.env);
    },
  };
}

/** Runs one forwarded request against an upstream, turning its failures into the hub's. */
export async function withUpstream<T>(
  runtime: HubRuntime,
  upstream: string,
  ctx: HandlerContext,
  forTool: boolean,
  work: (client: Upstream) => Promise<T>,
  alias?: Alias,
): Promise<T> {
  try {
    return await work(await runtime.upstreamFor(upstream, ctx));
  } catch (error) {
    throw upstreamFailure(upstream, error, forTool, alias);
  }
}

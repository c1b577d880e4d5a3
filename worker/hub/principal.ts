import { anonymousAddress, upstreamCapabilities, type HandlerContext } from "../mcp/index.ts";
import type { Principal } from "./client-pool.ts";

/** The principal an upstream call is made for: the hub's caller, with its client's capabilities. */
export function principalOf(ctx: HandlerContext): Principal {
  return {
    subject: ctx.caller?.subject ?? "",
    ...(ctx.caller?.credential ? { credential: ctx.caller.credential } : {}),
    ...addressOf(ctx),
    capabilities: upstreamCapabilities(ctx.request),
  };
}

/** The principal the hub lists upstream catalogs as: anonymous, asking for nothing. */
export const LISTING: Principal = { subject: "", capabilities: {}, listing: true };

function addressOf(ctx: HandlerContext): { address?: string } {
  const address = anonymousAddress(ctx);
  return address === undefined ? {} : { address };
}

import type { HandlerContext } from "../mcp/context.ts";
import type { Principal } from "./client-pool.ts";

/** What 2025 clients are assumed to handle: their `initialize` capabilities cannot be recalled. */
const LEGACY_ASSUMED = { elicitation: {}, sampling: {}, roots: {} };

/** The principal an upstream call is made for: the hub's caller, with its declared capabilities. */
export function principalOf(ctx: HandlerContext): Principal {
  const capabilities =
    ctx.request.era === "legacy" ? LEGACY_ASSUMED : ctx.request.clientCapabilities;
  return {
    subject: ctx.caller?.subject ?? "",
    ...(ctx.caller?.credential ? { credential: ctx.caller.credential } : {}),
    capabilities,
  };
}

/** The principal the hub lists upstream catalogs as: anonymous, asking for nothing. */
export const LISTING: Principal = { subject: "", capabilities: {} };

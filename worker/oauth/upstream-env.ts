import type { Upstream } from "./upstream.ts";

/** The upstream provider the Worker's variables configure, if any. */
export function upstreamFromEnv(_env: Cloudflare.Env): Upstream | undefined {
  return undefined;
}

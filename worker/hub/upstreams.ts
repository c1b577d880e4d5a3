import { waitUntil } from "cloudflare:workers";
import * as z from "zod/mini";
import type { FetchLike } from "../../shared/client/index.ts";
import { errorText } from "../../shared/error-text.ts";
import { catalogReader, inProcess } from "../mcp/index.ts";

/** The execution context an in-process call gets (the hub's request keeps the isolate alive). */
export type CallContext = {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  props: Record<string, unknown>;
};

/**
 * One context for every in-process call: pooled clients outlive the request that connected
 * them, so background work goes to whichever request is running when it is handed over.
 */
const IN_PROCESS: CallContext = inProcess({
  waitUntil: (promise) => waitUntil(promise),
  passThroughOnException: () => {},
  props: {},
});

/** The context the hub lists in-process upstreams with: they show it their whole catalogs. */
const LISTING = catalogReader<CallContext>({
  waitUntil: (promise) => waitUntil(promise),
  passThroughOnException: () => {},
  props: {},
});

/** Runs a Worker-style fetch in this isolate (an `mcpApp` mounted in the same Worker). */
export type InProcessApp = {
  fetch(request: Request, env: Cloudflare.Env, ctx: CallContext): Response | Promise<Response>;
};

/**
 * Where an upstream lives: a server mounted in this Worker (called in-process, no network),
 * another Worker reached through a service binding, or a remote URL.
 */
export type UpstreamConfig =
  | { name: string; app: InProcessApp }
  | { name: string; binding: (env: Cloudflare.Env) => Fetcher; path?: string }
  | { name: string; url: string; headers?: Record<string, string> };

/** Remote upstreams from a variable: `[{"name":"weather","url":"https://…/mcp","headers":{…}}]`. */
const RemoteUpstreamsSchema = z.array(
  z.object({
    name: z.string().check(z.regex(/^[A-Za-z0-9_.-]+$/)),
    url: z.url(),
    headers: z.optional(z.record(z.string(), z.string())),
  }),
);

/** Parses remote upstreams from JSON text; a bad value is reported, not fatal. */
export function remoteUpstreams(
  text: string | undefined,
  warn: (message: string) => void,
): UpstreamConfig[] {
  if (!text || text.trim() === "") return [];
  try {
    return RemoteUpstreamsSchema.parse(JSON.parse(text));
  } catch (error) {
    warn(`HUB_UPSTREAMS is not a valid list of {name, url, headers?}: ${errorText(error)}`);
    return [];
  }
}

/** The endpoint URL and the fetch a client uses to reach an upstream. */
export function transportOf(
  upstream: UpstreamConfig,
  env: Cloudflare.Env,
  listing = false,
): { url: string; fetch: FetchLike; forwardCredentials: boolean } {
  if ("app" in upstream) {
    const app = upstream.app;
    const context = listing ? LISTING : IN_PROCESS;
    return {
      url: `https://${upstream.name}.in-process/`,
      fetch: async (url, init) => app.fetch(new Request(url, init), env, context),
      forwardCredentials: true,
    };
  }
  if ("binding" in upstream) {
    const binding = upstream.binding(env);
    return {
      url: `https://${upstream.name}.binding${upstream.path ?? "/mcp"}`,
      fetch: (url, init) => binding.fetch(url, init),
      forwardCredentials: true,
    };
  }
  return { url: upstream.url, fetch: (url, init) => fetch(url, init), forwardCredentials: false };
}

import { waitUntil } from "cloudflare:workers";
import * as z from "zod/mini";
import type { FetchLike, SendLike } from "../../shared/client/index.ts";
import { errorText } from "../../shared/error-text.ts";
import { directEntry, inProcessEntry, markInProcess, type Caller } from "../mcp/index.ts";
import type { DirectTarget } from "./direct.ts";

/** The execution context an in-process call gets (the hub's request keeps the isolate alive). */
export type CallContext = {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  props: Record<string, unknown>;
};

/**
 * The context of an in-process call, marked for the server it reaches (markInProcess):
 * `"call"` for a caller's call (the hub counted its caller; the server does not count it again),
 * `"catalog"` for the hub's own listing (the server shows it its whole catalog). One per mark:
 * pooled clients outlive the request that connected them, so background work goes to whichever
 * request is running when it is passed on.
 */
function inProcessContext(mark: "call" | "catalog"): CallContext {
  return markInProcess(
    {
      waitUntil: (promise: Promise<unknown>) => waitUntil(promise),
      passThroughOnException: () => {},
      props: {},
    },
    mark,
  );
}
const CONTEXTS = { call: inProcessContext("call"), catalog: inProcessContext("catalog") };

/** Runs a Worker-style fetch in this isolate (an `mcpApp` mounted in the same Worker). */
export type InProcessApp = {
  fetch(request: Request, env: Cloudflare.Env, ctx: CallContext): Response | Promise<Response>;
};

/**
 * Whose credentials an upstream gets:
 * - `"forward"`: the hub's caller's own bearer token (the default for servers in this Worker
 *   and service bindings, which share its tokens);
 * - `"none"`: nothing (the default for remote URLs);
 * - `{ secret }`: the operator's credential, read from the Worker secret of that name (set with
 *   `wrangler secret put`, never in `[vars]`), sent as `Authorization: Bearer <secret>` or in
 *   `header` (with `scheme` before it; `""` for the bare value).
 */
export type Credentials =
  | "forward"
  | "none"
  | {
      secret: string;
      header?: string;
      scheme?: string;
      /**
       * Whose calls the operator's credential is used for: callers with a token (the default),
       * or `"everyone"`, anonymous callers too.
       */
      callers?: "authenticated" | "everyone";
    };

/**
 * Where an upstream lives: a server mounted in this Worker (called in-process, no network),
 * another Worker reached through a service binding, or a remote URL; and whose credentials it
 * gets.
 */
export type UpstreamConfig = { name: string; credentials?: Credentials } & (
  | { app: InProcessApp }
  | { binding: (env: Cloudflare.Env) => Fetcher; path?: string }
  | { url: string; headers?: Record<string, string> }
);

// Header names that carry credentials: these belong in a secret, not in HUB_UPSTREAMS.
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie)$|token|secret|key|auth|session|password/i;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const CredentialsSchema = z.union([
  z.literal("forward"),
  z.literal("none"),
  z.object({
    secret: z.string().check(z.regex(SECRET_NAME)),
    header: z.optional(z.string().check(z.regex(/^[A-Za-z0-9-]+$/))),
    scheme: z.optional(z.string().check(z.regex(/^[A-Za-z0-9-]*$/))),
    callers: z.optional(z.enum(["authenticated", "everyone"])),
  }),
]);

/**
 * Remote upstreams from a variable:
 * `[{"name":"weather","url":"https://…/mcp","credentials":{"secret":"WEATHER_TOKEN"}}]`.
 * Credentials default to `"none"`; `headers` may not carry any (they are plain configuration).
 */
const RemoteUpstreamsSchema = z.array(
  z.object({
    name: z.string().check(z.regex(/^[A-Za-z0-9_.-]+$/)),
    url: z.url(),
    headers: z.optional(z.record(z.string(), z.string())),
    credentials: z.optional(CredentialsSchema),
  }),
);

/**
 * Parses remote upstreams from JSON text; a bad value is reported, not fatal. An entry that puts
 * a credential in `headers` is left out (fail closed), with a message that says where it goes.
 */
export function remoteUpstreams(
  text: string | undefined,
  warn: (message: string) => void,
): UpstreamConfig[] {
  if (!text || text.trim() === "") return [];
  let list: z.infer<typeof RemoteUpstreamsSchema>;
  try {
    list = RemoteUpstreamsSchema.parse(JSON.parse(text));
  } catch (error) {
    warn(
      `HUB_UPSTREAMS is not a valid list of {name, url, headers?, credentials?}: ${errorText(error)}`,
    );
    return [];
  }
  return list.filter((upstream) => {
    const secret = Object.keys(upstream.headers ?? {}).find((name) => SECRET_HEADER.test(name));
    if (secret)
      warn(
        `HUB_UPSTREAMS: upstream "${upstream.name}" is left out: its header "${secret}" looks like a credential, ` +
          `and [vars] are not secret. Store it with \`wrangler secret put NAME\` and set "credentials": {"secret": "NAME"${/^authorization$/i.test(secret) ? "" : `, "header": "${secret}"`}}.`,
      );
    return !secret;
  });
}

/** Whose credentials an upstream gets, as its configuration says or by default. */
export function credentialsOf(upstream: UpstreamConfig): Credentials {
  return upstream.credentials ?? ("url" in upstream ? "none" : "forward");
}

/**
 * Why a call to an upstream is refused for this caller, if it is: an operator's credential
 * serves anonymous callers only where the operator said so (`callers: "everyone"`), and a token
 * this Worker's sign-in issued (its audience an endpoint here) is never sent outside the Worker,
 * where another server could replay it here.
 */
export function refusalFor(
  upstream: UpstreamConfig,
  caller: Caller | undefined,
): string | undefined {
  const credentials = credentialsOf(upstream);
  if (!caller && typeof credentials === "object" && credentials.callers !== "everyone")
    return `Upstream "${upstream.name}" is called with the operator's credential, for callers with a bearer token only; send one.`;
  if (caller?.localCredential && credentials === "forward" && !("app" in upstream))
    return `Upstream "${upstream.name}" is sent the caller's own token, and a token from this Worker's sign-in is good at this Worker only: it is not sent outside it.`;
  return undefined;
}

/** How an upstream's credentials are described to clients: the kind, never the secret's name. */
export function credentialKind(upstream: UpstreamConfig): "forward" | "operator" | "none" {
  const credentials = credentialsOf(upstream);
  return typeof credentials === "object" ? "operator" : credentials;
}

/** The header that carries an upstream's credentials for a caller, if it gets any. */
export function credentialHeader(
  upstream: UpstreamConfig,
  env: Cloudflare.Env,
  callerCredential: string | undefined,
): Record<string, string> {
  const credentials = credentialsOf(upstream);
  if (credentials === "none") return {};
  if (credentials === "forward") return callerCredential ? { Authorization: callerCredential } : {};
  const value: unknown = Reflect.get(env, credentials.secret);
  if (typeof value !== "string" || value === "")
    throw new Error(
      `The secret ${credentials.secret} for hub upstream "${upstream.name}" is not set; set it with \`wrangler secret put ${credentials.secret}\`.`,
    );
  const scheme = credentials.scheme ?? "Bearer";
  return { [credentials.header ?? "Authorization"]: scheme ? `${scheme} ${value}` : value };
}

/**
 * Whether an upstream is told an anonymous caller's address: a server of this Worker, which
 * counts limits per caller and would otherwise see every anonymous caller of the hub as one.
 * Nobody outside the Worker is told it.
 */
export function sendsAddress(upstream: UpstreamConfig): boolean {
  return "app" in upstream;
}

/**
 * A server of this Worker made by `mcpHandler` or `mcpApp`, as callers' calls reach it: straight
 * through its method table. Undefined for any other upstream, which is reached by a client.
 */
export function directTarget(upstream: UpstreamConfig): DirectTarget | undefined {
  if (!("app" in upstream)) return undefined;
  const entry = directEntry(upstream.app);
  return entry && { entry, url: `https://${upstream.name}.in-process/`, ctx: CONTEXTS.call };
}

/** Who a connection to an upstream is for: the caller's credential and address, or the hub's listing. */
export type TransportFor = { credential?: string; address?: string; listing?: boolean };

/**
 * The endpoint URL, the fetch and the headers a client uses to reach an upstream for a caller;
 * for an edgemcp endpoint of this Worker, `send` too, which hands it requests past HTTP.
 */
export function transportOf(
  upstream: UpstreamConfig,
  env: Cloudflare.Env,
  { credential, address, listing = false }: TransportFor = {},
): { url: string; fetch: FetchLike; send?: SendLike; headers: Record<string, string> } {
  const auth = credentialHeader(upstream, env, credential);
  if ("app" in upstream) {
    const app = upstream.app;
    const context = CONTEXTS[listing ? "catalog" : "call"];
    const url = `https://${upstream.name}.in-process/`;
    const entry = inProcessEntry(app);
    return {
      url,
      fetch: async (url, init) => app.fetch(new Request(url, init), env, context),
      ...(entry
        ? {
            send: (message, headers, signal) =>
              entry({ url, message, headers, signal }, env, context),
          }
        : {}),
      // The address header of a real request, which the server reads as its caller's.
      headers: address === undefined ? auth : { ...auth, "CF-Connecting-IP": address },
    };
  }
  if ("binding" in upstream) {
    const binding = upstream.binding(env);
    return {
      url: `https://${upstream.name}.binding${upstream.path ?? "/mcp"}`,
      fetch: (url, init) => binding.fetch(url, init),
      headers: auth,
    };
  }
  return {
    url: upstream.url,
    fetch: (url, init) => fetch(url, init),
    headers: { ...upstream.headers, ...auth },
  };
}

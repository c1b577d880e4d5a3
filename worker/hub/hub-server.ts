import { DEFAULT_LIST_TIMEOUT_MS, Hub, type HubView } from "../../shared/hub/hub.ts";
import {
  DynamicServer,
  ForwardedResult,
  listenFromSource,
  prompt,
  resource,
  resourceTemplate,
  tool,
  type HandlerContext,
  type ServerDefinition,
} from "../mcp/index.ts";
import { ClientPool } from "./client-pool.ts";
import { forward } from "./forward.ts";
import { hubListenSource } from "./listen.ts";
import { LISTING, principalOf } from "./principal.ts";
import { asHubTask, hubTaskRouter } from "./tasks.ts";
import { withUpstream, type HubRuntime } from "./runtime.ts";
import type { UpstreamConfig } from "./upstreams.ts";
import type { Alias } from "./errors.ts";
import type { CompleteParams } from "../../shared/protocol/params.ts";
import { CompleteResultSchema } from "../../shared/protocol/results.ts";
import { parseComplete } from "../../shared/client/parse.ts";

export type HubConfig = {
  name?: string;
  version?: string;
  /** Between upstream and member names (default "__"). */
  separator?: string;
  /** How long an upstream may take to list its catalog (default 5 s). */
  listTimeoutMs?: number;
  /** How long a forwarded call may stay silent (no progress) before it fails (default 60 s). */
  callTimeoutMs?: number;
  /** The upstreams, in catalog order; a function reads them from the Worker's bindings. */
  upstreams: UpstreamConfig[] | ((env: Cloudflare.Env) => UpstreamConfig[]);
};

const MIN_VIEW_TTL_MS = 1_000;
const MAX_VIEW_TTL_MS = 300_000;
const PROVENANCE = "dev.edgemcp/upstream";

/**
 * The hub as an MCP server: one endpoint whose catalog merges its upstreams' (rebuilt when
 * their lists expire or change), and whose every call is forwarded to the upstream that owns it.
 */
export function hubServer(config: HubConfig): DynamicServer {
  // Built on the first request, when the bindings (and so the upstream list) are known.
  let parts: { pool: ClientPool; runtime: HubRuntime } | undefined;
  const setUp = (env: Cloudflare.Env) => {
    if (parts) return parts;
    const list = typeof config.upstreams === "function" ? config.upstreams(env) : config.upstreams;
    const listTimeoutMs = config.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
    // Connecting to an upstream may take as long as listing its catalog.
    const pool = new ClientPool(new Map(list.map((u) => [u.name, u])), listTimeoutMs);
    const hub = new Hub({
      upstreams: list.map((u) => u.name),
      ...(config.separator ? { separator: config.separator } : {}),
      timeoutMs: listTimeoutMs,
      warn: (message) => console.warn(message),
    });
    const runtime: HubRuntime = {
      hub,
      idleMs: config.callTimeoutMs ?? 60_000,
      clientFor: (upstream, ctx) => pool.client(upstream, principalOf(ctx), ctx.env, ctx.signal),
    };
    return (parts = { pool, runtime });
  };
  const server = new DynamicServer(config.name ?? "edgemcp-hub", async (context) => {
    const { pool, runtime } = setUp(context.env);
    const view = await runtime.hub.view((upstream, signal) =>
      pool.client(upstream, LISTING, context.env, signal),
    );
    const ttlMs = Math.min(MAX_VIEW_TTL_MS, Math.max(MIN_VIEW_TTL_MS, view.cache.ttlMs));
    return { definition: hubDefinition(config, view, runtime, () => server.invalidate()), ttlMs };
  });
  return server;
}

function hubDefinition(
  config: HubConfig,
  view: HubView,
  runtime: HubRuntime,
  invalidate: () => void,
): ServerDefinition {
  const { hub, idleMs } = runtime;
  const naming = hub.naming;
  const relay = (
    upstream: string,
    ctx: HandlerContext,
    method: string,
    params: Record<string, unknown>,
    forTool: boolean,
    alias?: Alias,
  ) =>
    withUpstream(
      runtime,
      upstream,
      ctx,
      forTool,
      (client) => forward(method, params, { ctx, client, upstream, naming, idleMs }),
      alias,
    );
  const complete =
    (upstream: string, ref: CompleteParams["ref"]) =>
    (argument: string) =>
    async (value: string, context: { arguments: Record<string, string> }, ctx: HandlerContext) =>
      withUpstream(runtime, upstream, ctx, false, async (client) => {
        // Forwarded like any request (idle timeout, cancelled with the call), then checked
        // as the client's own complete() would.
        const params = { ref, argument: { name: argument, value }, context };
        const result = await forward("completion/complete", params, {
          ctx,
          client,
          upstream,
          naming,
          idleMs,
        });
        const parseContext = { era: client.era, method: "completion/complete" };
        return parseComplete(CompleteResultSchema, result, parseContext).completion;
      });
  return {
    name: config.name ?? "edgemcp-hub",
    version: config.version ?? "0.1.0",
    title: "edgemcp hub",
    description: `One endpoint for ${view.status.length} MCP servers, their tools and prompts named <server>${naming.separator}<name>.`,
    instructions:
      `Tools and prompts are named <server>${naming.separator}<name>; resources keep their own URIs. Servers: ` +
      view.status
        .map((s) => (s.ok ? s.upstream : `${s.upstream} (unavailable: ${s.reason})`))
        .join(", ") +
      (view.collisions.length > 0
        ? `. Left out because two servers claim them: ${view.collisions.map((c) => c.key).join(", ")}`
        : "") +
      ".",
    cache: view.cache,
    pageSize: 500,
    tools: view.tools.map(({ item, upstream, original }) =>
      tool({
        ...item,
        _meta: { ...item._meta, [PROVENANCE]: { server: upstream, name: original } },
        run: async (args, ctx) => {
          const result = await relay(
            upstream,
            ctx,
            "tools/call",
            { name: original, arguments: args },
            true,
            { kind: "tool", original, exposed: item.name },
          );
          // A task is known to the hub's client under a namespaced id, routed back on tasks/*.
          return new ForwardedResult(
            result.resultType === "task" ? asHubTask(upstream, result, naming) : result,
          );
        },
      }),
    ),
    prompts: view.prompts.map(({ item, upstream, original }) =>
      prompt({
        ...item,
        _meta: { ...item._meta, [PROVENANCE]: { server: upstream, name: original } },
        complete: Object.fromEntries(
          (item.arguments ?? []).map((a) => [
            a.name,
            complete(upstream, { type: "ref/prompt", name: original })(a.name),
          ]),
        ),
        get: async (args, ctx) =>
          new ForwardedResult(
            await relay(upstream, ctx, "prompts/get", { name: original, arguments: args }, false, {
              kind: "prompt",
              original,
              exposed: item.name,
            }),
          ),
      }),
    ),
    resources: view.resources.map(({ item, upstream }) =>
      resource({
        ...item,
        read: async (ctx) =>
          new ForwardedResult(
            await relay(upstream, ctx, "resources/read", { uri: item.uri }, false),
          ),
      }),
    ),
    // The merged catalog parsed each template once (leaving out those that do not parse).
    resourceTemplates: view.resourceTemplates.map(({ item, upstream, template }) => ({
      ...resourceTemplate({
        ...item,
        complete: Object.fromEntries(
          template.variables.map((v) => [
            v,
            complete(upstream, { type: "ref/resource", uri: item.uriTemplate })(v),
          ]),
        ),
        read: async (_vars, uri, ctx) =>
          new ForwardedResult(await relay(upstream, ctx, "resources/read", { uri }, false)),
      }),
      compile: () => template,
    })),
    tasks: hubTaskRouter(runtime),
    listen: listenFromSource(hubListenSource(runtime, view, invalidate)),
  };
}

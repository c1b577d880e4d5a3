import { DEFAULT_LIST_TIMEOUT_MS, Hub, type HubView } from "../../shared/hub/hub.ts";
import {
  DynamicServer,
  ForwardedResult,
  inputRounds,
  listenFromSource,
  prompt,
  resource,
  resourceTemplate,
  routedTasks,
  tool,
  type HandlerContext,
  type ServerDefinition,
} from "../mcp/index.ts";
import { ClientPool } from "./client-pool.ts";
import { forward } from "./forward.ts";
import { hubListenSource } from "./listen.ts";
import { LISTING } from "./principal.ts";
import { asHubTask, hubTaskRouter } from "./tasks.ts";
import { hubRuntime, withUpstream, type HubRuntime } from "./runtime.ts";
import { credentialKind, type UpstreamConfig } from "./upstreams.ts";
import type { Alias } from "./errors.ts";
import type { CompleteParams } from "../../shared/protocol/params.ts";
import { CompleteResultSchema } from "../../shared/protocol/results.ts";
import { parseComplete } from "../../shared/client/parse.ts";
import { fromUpstream, PROVENANCE } from "./provenance.ts";
import type { PoolLimits } from "./client-pool.ts";
import { servable } from "./servable.ts";
import { upstreamReport, type UpstreamReport } from "./report.ts";

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
  /** How many upstream clients an isolate keeps, and one caller may hold (256 and 16). */
  pool?: Partial<PoolLimits>;
};

/** The resource where the hub reports its upstreams' state as JSON. */
export const UPSTREAMS_URI = "edgemcp://hub/upstreams";

const MIN_VIEW_TTL_MS = 1_000;
const MAX_VIEW_TTL_MS = 300_000;

/**
 * The hub as an MCP server: one endpoint whose catalog merges its upstreams' (rebuilt when
 * their lists expire or change), and whose every call is forwarded to the upstream that owns it.
 */
export function hubServer(config: HubConfig): DynamicServer {
  // Built on the first request, when the bindings (and so the upstream list) are known.
  let parts:
    | {
        pool: ClientPool;
        runtime: HubRuntime;
        credentials: Map<string, UpstreamReport["credentials"]>;
      }
    | undefined;
  const setUp = (env: Cloudflare.Env) => {
    if (parts) return parts;
    const list = typeof config.upstreams === "function" ? config.upstreams(env) : config.upstreams;
    const listTimeoutMs = config.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
    // Connecting to an upstream may take as long as listing its catalog.
    const pool = new ClientPool(new Map(list.map((u) => [u.name, u])), listTimeoutMs, config.pool);
    const hub = new Hub({
      upstreams: list.map((u) => u.name),
      ...(config.separator ? { separator: config.separator } : {}),
      timeoutMs: listTimeoutMs,
      // Servers of this Worker keep their names and URIs whatever a remote upstream claims.
      trusted: list.filter((u) => "app" in u).map((u) => u.name),
      warn: (message) => console.warn(message),
    });
    const runtime = hubRuntime(hub, list, pool, config.callTimeoutMs ?? 60_000);
    const credentials = new Map(list.map((u) => [u.name, credentialKind(u)]));
    return (parts = { pool, runtime, credentials });
  };
  const server = new DynamicServer(config.name ?? "edgemcp-hub", async (context) => {
    const { pool, runtime, credentials } = setUp(context.env);
    const view = await runtime.hub.view((upstream, signal) =>
      pool.client(upstream, LISTING, context.env, signal),
    );
    const ttlMs = Math.min(MAX_VIEW_TTL_MS, Math.max(MIN_VIEW_TTL_MS, view.cache.ttlMs));
    const report = upstreamReport(view, credentials);
    const origin = new WeakMap<object, string>();
    const built = hubDefinition(config, view, report, runtime, () => server.invalidate(), origin);
    const { definition, dropped } = servable(built, (item) => origin.get(item));
    for (const entry of report) {
      const own = dropped.get(entry.name);
      if (own) entry.dropped = own;
      if (own) console.warn(`Hub leaves out of "${entry.name}": ${JSON.stringify(own)}`);
    }
    return { definition, ttlMs };
  });
  return server;
}

function hubDefinition(
  config: HubConfig,
  view: HubView,
  report: UpstreamReport[],
  runtime: HubRuntime,
  invalidate: () => void,
  origin: WeakMap<object, string>,
): ServerDefinition {
  const from = <T extends object>(upstream: string, item: T): T => {
    origin.set(item, upstream);
    return item;
  };
  const { hub, idleMs } = runtime;
  const naming = hub.naming;
  const relay = async (
    upstream: string,
    ctx: HandlerContext,
    method: string,
    params: Record<string, unknown>,
    forTool: boolean,
    alias?: Alias,
  ) =>
    fromUpstream(
      await withUpstream(
        runtime,
        upstream,
        ctx,
        forTool,
        (client) => forward(method, params, { ctx, client, upstream, naming, idleMs }),
        alias,
      ),
      upstream,
    );
  const down = new Map(view.status.flatMap((s) => (s.ok ? [] : [[s.upstream, s.reason]])));
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
      `Tools and prompts are named <server>${naming.separator}<name>; resources keep their own URIs. ` +
      `Each server's health, latency and tool count: the ${UPSTREAMS_URI} resource. Servers: ` +
      view.status
        .map((s) => (s.ok ? s.upstream : `${s.upstream} (unavailable: ${s.reason})`))
        .join(", ") +
      (view.collisions.some((c) => !c.kept)
        ? `. Left out because two servers claim them: ${view.collisions
            .filter((c) => !c.kept)
            .map((c) => c.key)
            .join(", ")}`
        : "") +
      ".",
    cache: view.cache,
    pageSize: 500,
    // Upstreams' log messages are relayed, so the hub offers logging like any server that logs.
    logging: true,
    unlisted: (kind, name) => {
      const route = hub.route(name);
      const reason = route && down.get(route.upstream);
      return reason === undefined
        ? undefined
        : `The ${kind} "${name}" belongs to upstream "${route!.upstream}", which is unavailable right now (${reason}); try again later.`;
    },
    tools: view.tools.map(({ item, upstream, original }) =>
      from(
        upstream,
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
    ),
    prompts: view.prompts.map(({ item, upstream, original }) =>
      from(
        upstream,
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
              await relay(
                upstream,
                ctx,
                "prompts/get",
                { name: original, arguments: args },
                false,
                {
                  kind: "prompt",
                  original,
                  exposed: item.name,
                },
              ),
            ),
        }),
      ),
    ),
    resources: [
      resource({
        uri: UPSTREAMS_URI,
        name: "hub-upstreams",
        title: "Hub upstreams",
        description:
          "Each upstream server's health, catalog latency, tool count and credential kind, as JSON",
        mimeType: "application/json",
        read: () =>
          JSON.stringify({ checkedAt: new Date(view.builtAt).toISOString(), upstreams: report }),
      }),
      ...view.resources
        .filter(({ item }) => item.uri !== UPSTREAMS_URI)
        .map(({ item, upstream }) =>
          from(
            upstream,
            resource({
              ...item,
              _meta: { ...item._meta, [PROVENANCE]: { server: upstream } },
              read: async (ctx) =>
                new ForwardedResult(
                  await relay(upstream, ctx, "resources/read", { uri: item.uri }, false),
                ),
            }),
          ),
        ),
    ],
    // The merged catalog parsed each template once (leaving out those that do not parse).
    resourceTemplates: view.resourceTemplates.map(({ item, upstream, template }) =>
      from(upstream, {
        ...resourceTemplate({
          ...item,
          _meta: { ...item._meta, [PROVENANCE]: { server: upstream } },
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
      }),
    ),
    // Upstreams' input requests are relayed to the hub's client (ctx.relay).
    input: inputRounds,
    tasks: routedTasks(hubTaskRouter(runtime)),
    listen: listenFromSource(hubListenSource(runtime, view, invalidate)),
  };
}

import type { McpClient, Subscription } from "../../shared/client/index.ts";
import { errorText } from "../../shared/error-text.ts";
import type { HubView } from "../../shared/hub/hub.ts";
import { prefixed } from "../../shared/hub/names.ts";
import type { ListenFilter } from "../../shared/protocol/params.ts";
import { TASKS_EXTENSION } from "../../shared/protocol/capabilities.ts";
import { honouredFilter, type ListenSource } from "../mcp/index.ts";
import type { HubRuntime } from "./runtime.ts";

/** The hub's filter split by upstream: each one's resource URIs and task ids (its own ids). */
function byUpstream(filter: ListenFilter, runtime: HubRuntime, view: HubView) {
  const owned = new Map<string, { uris: string[]; taskIds: string[] }>();
  const of = (upstream: string) => {
    let entry = owned.get(upstream);
    if (!entry) owned.set(upstream, (entry = { uris: [], taskIds: [] }));
    return entry;
  };
  for (const uri of filter.resourceSubscriptions ?? []) {
    const owner = runtime.hub.resourceOwner(view, uri);
    if (owner) of(owner.upstream).uris.push(uri);
  }
  for (const id of filter.taskIds ?? []) {
    const route = runtime.hub.route(id);
    if (route) of(route.upstream).taskIds.push(route.original);
  }
  return owned;
}

/** The part of the hub's filter one upstream can serve, or undefined when nothing applies. */
function filterFor(
  filter: ListenFilter,
  owned: { uris: string[]; taskIds: string[] } | undefined,
  client: McpClient,
): ListenFilter | undefined {
  const caps = client.server.capabilities;
  // The list-change flags apply to every upstream; URIs and task ids only to their owner.
  const requested: ListenFilter = { ...filter };
  delete requested.resourceSubscriptions;
  delete requested.taskIds;
  if (owned?.uris.length) requested.resourceSubscriptions = owned.uris;
  if (owned?.taskIds.length) requested.taskIds = owned.taskIds;
  const own = honouredFilter(requested, caps, Boolean(caps.extensions?.[TASKS_EXTENSION]));
  return Object.keys(own).length > 0 ? own : undefined;
}

/**
 * Listen streams on the hub: one upstream listen per upstream the filter concerns, relayed as
 * they come (task ids under the hub's names). A list change also makes the hub rebuild its
 * catalog. The upstream streams close when the hub's client closes its stream.
 */
export function hubListenSource(
  runtime: HubRuntime,
  view: HubView,
  invalidate: () => void,
): ListenSource {
  const { naming } = runtime.hub;
  return async (filter, ctx, emit) => {
    const opened: { upstream: string; subscription: Subscription }[] = [];
    const owned = byUpstream(filter, runtime, view);
    await Promise.all(
      view.status
        .filter((s) => s.ok)
        .map(async ({ upstream }) => {
          try {
            const client = await runtime.clientFor(upstream, ctx);
            const own = filterFor(filter, owned.get(upstream), client);
            if (own)
              opened.push({
                upstream,
                subscription: await client.listen(own, { signal: ctx.signal }),
              });
          } catch (error) {
            console.warn(`The hub cannot listen to upstream "${upstream}": ${errorText(error)}`);
          }
        }),
    );
    if (opened.length === 0) {
      // Nothing upstream can report; the stream stays open until the client closes it.
      await new Promise<void>((resolve) =>
        ctx.signal.aborted
          ? resolve()
          : ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      return;
    }
    await Promise.all(
      opened.map(async ({ upstream, subscription }) => {
        for await (const notification of subscription) {
          if (notification.method.endsWith("/list_changed")) invalidate();
          if (notification.method === "notifications/tasks") {
            emit({
              method: notification.method,
              params: {
                ...notification.params,
                taskId: prefixed(upstream, notification.params.taskId, naming),
              },
            });
          } else {
            emit({
              method: notification.method,
              ...(notification.params ? { params: notification.params } : {}),
            });
          }
        }
      }),
    );
    await Promise.all(opened.map(({ subscription }) => subscription.close()));
  };
}

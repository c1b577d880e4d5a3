import type { McpClient, Subscription } from "../../shared/client/index.ts";
import type { HubView } from "../../shared/hub/hub.ts";
import type { ListenFilter } from "../../shared/protocol/notifications.ts";
import type { ListenSource } from "../mcp/define.ts";
import type { HubRuntime } from "./runtime.ts";

/** The part of the hub's filter one upstream can serve, or undefined when nothing applies. */
function filterFor(
  upstream: string,
  filter: ListenFilter,
  client: McpClient,
  runtime: HubRuntime,
  view: HubView,
): ListenFilter | undefined {
  const caps = client.server.capabilities;
  const own: ListenFilter = {};
  if (filter.toolsListChanged && caps.tools?.listChanged) own.toolsListChanged = true;
  if (filter.promptsListChanged && caps.prompts?.listChanged) own.promptsListChanged = true;
  if (filter.resourcesListChanged && caps.resources?.listChanged) own.resourcesListChanged = true;
  const uris = (filter.resourceSubscriptions ?? []).filter(
    (uri) => runtime.hub.resourceOwner(view, uri)?.upstream === upstream,
  );
  if (uris.length > 0 && caps.resources?.subscribe) own.resourceSubscriptions = uris;
  const tasks = (filter.taskIds ?? []).flatMap((id) => {
    const route = runtime.hub.route(id);
    return route?.upstream === upstream ? [route.original] : [];
  });
  if (tasks.length > 0) own.taskIds = tasks;
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
  const { separator } = runtime.hub.naming;
  return async (filter, ctx, emit) => {
    const opened: { upstream: string; subscription: Subscription }[] = [];
    await Promise.all(
      view.status
        .filter((s) => s.ok)
        .map(async ({ upstream }) => {
          try {
            const client = await runtime.clientFor(upstream, ctx);
            const own = filterFor(upstream, filter, client, runtime, view);
            if (own)
              opened.push({
                upstream,
                subscription: await client.listen(own, { signal: ctx.signal }),
              });
          } catch (error) {
            console.warn(
              `The hub cannot listen to upstream "${upstream}": ${error instanceof Error ? error.message : String(error)}`,
            );
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
                taskId: `${upstream}${separator}${notification.params.taskId}`,
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

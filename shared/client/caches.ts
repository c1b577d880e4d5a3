import type { ListenNotification } from "../protocol/notifications.ts";
import type {
  DiscoverResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "../protocol/results.ts";
import { TtlCache } from "./cache.ts";

const SEPARATORS = ["/", "?", "#"];

// An update's URI may name a sub-resource of a cached read, or the other way round: `inner`
// goes on past `outer` after a separator (`a/b` in `a`, and `dir/a` in `dir/` alike).
function within(inner: string, outer: string): boolean {
  return (
    inner.length > outer.length &&
    inner.startsWith(outer) &&
    (SEPARATORS.includes(outer.at(-1) ?? "") || SEPARATORS.includes(inner.charAt(outer.length)))
  );
}

function related(a: string, b: string): boolean {
  return a === b || within(a, b) || within(b, a);
}

/** The client's cached results, one cache per cacheable method. */
export class ClientCaches {
  readonly discover = new TtlCache<DiscoverResult>();
  readonly tools = new TtlCache<ListToolsResult>();
  readonly prompts = new TtlCache<ListPromptsResult>();
  readonly resources = new TtlCache<ListResourcesResult>();
  readonly templates = new TtlCache<ListResourceTemplatesResult>();
  readonly reads = new TtlCache<ReadResourceResult>();

  /** Drops what a listen notification says has changed. */
  invalidate(notification: ListenNotification): void {
    switch (notification.method) {
      case "notifications/tools/list_changed":
        return this.tools.clear();
      case "notifications/prompts/list_changed":
        return this.prompts.clear();
      case "notifications/resources/list_changed":
        this.resources.clear();
        return this.templates.clear();
      case "notifications/resources/updated": {
        const { uri } = notification.params;
        return this.reads.deleteWhere((key) => related(key, uri));
      }
      case "notifications/tasks":
        return;
    }
  }

  clear(): void {
    for (const cache of [
      this.discover,
      this.tools,
      this.prompts,
      this.resources,
      this.templates,
      this.reads,
    ]) {
      cache.clear();
    }
  }
}

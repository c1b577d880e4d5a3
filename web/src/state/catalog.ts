import type { CacheMode } from "../../../shared/client/index.ts";
import { catalog, catalogLoading, session, upstreamStatus, type Catalog } from "./store.ts";
import { HUB_UPSTREAMS_URI, upstreamReport } from "../lib/catalog-view.ts";

const message = (reason: unknown) => (reason instanceof Error ? reason.message : String(reason));

/**
 * Loads the four lists the server advertises, through the client's cache (`use`), or from the
 * network (`refresh`). A list that fails is reported; the others still show.
 */
export async function loadCatalog(mode: CacheMode = "use"): Promise<void> {
  const current = session.value;
  if (!current) return;
  const { client } = current;
  const caps = client.server.capabilities;
  catalogLoading.value = true;
  const options = { cache: mode };
  const [tools, prompts, resources, templates] = await Promise.allSettled([
    caps.tools ? client.listTools(options) : Promise.resolve(undefined),
    caps.prompts ? client.listPrompts(options) : Promise.resolve(undefined),
    caps.resources ? client.listResources(options) : Promise.resolve(undefined),
    caps.resources ? client.listResourceTemplates(options) : Promise.resolve(undefined),
  ]);
  if (session.value !== current) return;
  const errors: string[] = [];
  const value = <T>(settled: PromiseSettledResult<T>, what: string): T | undefined => {
    if (settled.status === "fulfilled") return settled.value;
    errors.push(`${what}: ${message(settled.reason)}`);
    return undefined;
  };
  const next: Catalog = { errors, loadedAt: Date.now() };
  const toolList = value(tools, "tools/list");
  const promptList = value(prompts, "prompts/list");
  const resourceList = value(resources, "resources/list");
  const templateList = value(templates, "resources/templates/list");
  if (toolList) next.tools = toolList;
  if (promptList) next.prompts = promptList;
  if (resourceList) next.resources = resourceList;
  if (templateList) next.templates = templateList;
  catalog.value = next;
  catalogLoading.value = false;
  // A hub's upstream health is refreshed with its catalog.
  await loadUpstreamStatus();
}

/**
 * A hub's upstreams, read from its status resource: each one's health, the latency of listing
 * its catalog as the hub measured it, and its tool count. Servers without the resource have none.
 */
export async function loadUpstreamStatus(): Promise<void> {
  const current = session.value;
  if (!current?.client.server.capabilities.resources) return;
  try {
    const { result } = await current.client.readResource(HUB_UPSTREAMS_URI, { cache: "refresh" });
    const content = result.contents[0];
    const text = content && "text" in content ? content.text : undefined;
    if (session.value === current) upstreamStatus.value = upstreamReport(text);
  } catch {
    // Not a hub (or an older one): the catalog groups by upstream without health.
  }
}

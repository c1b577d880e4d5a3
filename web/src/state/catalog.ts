import type { CacheMode } from "../../../shared/client/index.ts";
import {
  catalog,
  catalogLoading,
  endpoints,
  session,
  upstreamLatency,
  type Catalog,
} from "./store.ts";
import { connect } from "../../../shared/client/index.ts";
import { recordingFetch } from "./wire.ts";

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
}

/**
 * How fast each upstream of this Worker's hub answers on its own: one `server/discover` per
 * mounted server, timed from the browser. Upstreams not mounted here show the hub's word only.
 */
export async function measureUpstreams(
  origin: string,
  upstreams: readonly string[],
): Promise<void> {
  const mounted = new Set(endpoints.value.map((e) => e.path));
  const results: Record<string, number | string> = {};
  await Promise.all(
    upstreams.map(async (name) => {
      const path = `/mcp/${name}`;
      if (!mounted.has(path)) return;
      const started = performance.now();
      try {
        const client = await connect(`${origin}${path}`, {
          fetch: recordingFetch(),
          signal: AbortSignal.timeout(10_000),
        });
        results[name] = Math.round(performance.now() - started);
        await client.close();
      } catch (error) {
        results[name] = message(error);
      }
    }),
  );
  upstreamLatency.value = results;
}

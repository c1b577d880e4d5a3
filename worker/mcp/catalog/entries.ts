import type { ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { unsealedPaging } from "../define/sealing.ts";
import type { Catalog } from "./catalog.ts";
import { isZodSchema } from "./compile.ts";
import type { Problems } from "./problems.ts";

/** An absolute URI: a scheme, a colon, and the rest. */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

/**
 * Checks a definition's resources, resource templates and prompts and puts them in its catalog;
 * returns the capabilities they make the server offer.
 * The builders (`resource()`, `resourceTemplate()`, `prompt()`) bring this with their methods
 * (`ENTRIES`), so a server without them links none of it; the catalog itself only says which
 * entry was not made by its builder.
 */
export function enterEntries(catalog: Catalog, problems: Problems): ServerCapabilities {
  const { definition, pageSize } = catalog;
  const { resources = [], resourceTemplates = [], prompts = [] } = definition;
  for (const res of resources) {
    const label = `resource ${JSON.stringify(res.uri)}`;
    if (typeof res.uri !== "string" || !ABSOLUTE_URI.test(res.uri))
      problems.add(`${label}: a resource URI is absolute, with a scheme (e.g. "notes://all").`);
    else if (catalog.resources.has(res.uri))
      problems.add(`${label} is defined twice: give each resource its own URI.`);
    if (typeof res.name !== "string" || res.name === "") problems.add(`${label} needs a name.`);
    catalog.resources.set(res.uri, res);
  }
  const seenTemplates = new Set<string>();
  for (const t of resourceTemplates) {
    const label = `resource template ${JSON.stringify(t.uriTemplate)}`;
    if (seenTemplates.has(t.uriTemplate))
      problems.add(`${label} is defined twice: give each template its own URI template.`);
    seenTemplates.add(t.uriTemplate);
    if (typeof t.name !== "string" || t.name === "") problems.add(`${label} needs a name.`);
    // One not made by resourceTemplate() has no parser (the catalog says so).
    if (typeof t.compile !== "function") continue;
    const template = problems.attempt(label, () => t.compile());
    if (template) catalog.templates.push({ definition: t, template });
  }
  for (const p of prompts) {
    const named = problems.name("prompt", p.name, catalog.prompts);
    if (typeof p.get !== "function")
      problems.add(`prompt "${p.name}" has no get(args, ctx) function.`);
    if (p.args !== undefined && (!isZodSchema(p.args) || p.args._zod.def.type !== "object"))
      problems.add(
        `prompt "${p.name}": args must be a zod object of strings, e.g. z.object({ topic: z.string() }).`,
      );
    if (named) catalog.prompts.set(p.name, { definition: p });
  }
  const counts = {
    prompts: catalog.prompts.size,
    resources: catalog.resources.size,
    resourceTemplates: catalog.templates.length,
  };
  for (const problem of unsealedPaging(definition, counts, pageSize)) problems.add(problem);
  const completes =
    catalog.templates.some((t) => t.definition.complete) ||
    [...catalog.prompts.values()].some((p) => p.definition.complete);
  return {
    resources: catalog.resources.size > 0 || catalog.templates.length > 0 ? {} : undefined,
    prompts: catalog.prompts.size > 0 ? {} : undefined,
    completions: completes ? {} : undefined,
  };
}

import * as z from "zod/mini";
import type { Prompt, PromptArgument } from "../../../shared/protocol/primitives.ts";
import type { List } from "../context/paging.ts";
import type { PromptDefinition } from "../define/prompt.ts";
import type { Catalog } from "./catalog.ts";
import { strip } from "./compile.ts";

const built = new WeakMap<Catalog, List>();

/**
 * A catalog's prompts list, made by its first prompts/list. It comes with the prompts methods
 * (`prompt()` brings them), so a server without prompts links none of this, nor the zod it uses
 * to read an argument's description and whether it is required.
 */
export function promptList(catalog: Catalog): List {
  let list = built.get(catalog);
  if (!list) {
    const items = [...catalog.prompts.values()].map((p) => promptWire(p.definition));
    built.set(catalog, (list = catalog.listFor("prompts", items)));
  }
  return list;
}

export function promptWire(p: PromptDefinition): Prompt {
  const args: PromptArgument[] =
    p.arguments ??
    Object.entries(p.args?._zod.def.shape ?? {}).map(([name, schema]) =>
      strip({
        name,
        description: z.globalRegistry.get(schema)?.description,
        required: !z.safeParse(schema, undefined).success,
      }),
    );
  return strip({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: args.length > 0 ? args : undefined,
    icons: p.icons,
    _meta: p._meta,
  });
}

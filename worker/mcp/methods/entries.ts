import { enterEntries } from "../catalog/entries.ts";
import { ENTRIES, METHODS } from "../define/features.ts";
import type { PromptArgs, PromptDefinition, PromptEntry } from "../define/prompt.ts";
import {
  templateWithParser,
  type ResourceDefinition,
  type ResourceEntry,
  type ResourceTemplateDefinition,
  type TemplateEntry,
} from "../define/resource.ts";
import { complete } from "./completion.ts";
import type { Route } from "./method.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { listResources, listResourceTemplates, readResource } from "./resources.ts";

// The builders of a definition's prompts, resources and templates, each bringing the methods
// that serve it (both eras; `asks`: the handler may ask the client for input) and the checks the
// catalog runs on it. A server without prompts links none of prompts/*, one without completers
// none of completion/complete, a tools-only one none of those checks.

const PROMPTS = {
  "prompts/list": { run: listPrompts },
  "prompts/get": { run: getPrompt, asks: true },
} as const satisfies Record<string, Route>;

const RESOURCES = {
  "resources/list": { run: listResources },
  "resources/read": { run: readResource, asks: true },
  "resources/templates/list": { run: listResourceTemplates },
} as const satisfies Record<string, Route>;

const COMPLETION = {
  "completion/complete": { run: complete },
} as const satisfies Record<string, Route>;

/** A prompt template whose argument types are inferred from its zod schema. */
export function prompt<A extends PromptArgs>(given: PromptDefinition<A>): PromptEntry {
  const definition = given as unknown as PromptDefinition;
  const methods = definition.complete ? { ...PROMPTS, ...COMPLETION } : PROMPTS;
  return { ...definition, [METHODS]: methods, [ENTRIES]: enterEntries };
}

/** A fixed resource at one URI. */
export function resource(definition: ResourceDefinition): ResourceEntry {
  return { ...definition, [METHODS]: RESOURCES, [ENTRIES]: enterEntries };
}

/**
 * A family of resources addressed by an RFC 6570 template; read handlers get typed variables.
 * The template parser comes with this function, so a server without templates does not carry it.
 */
export function resourceTemplate<T extends string>(
  definition: ResourceTemplateDefinition<T>,
): TemplateEntry {
  const methods = definition.complete ? { ...RESOURCES, ...COMPLETION } : RESOURCES;
  return { ...templateWithParser(definition), [METHODS]: methods, [ENTRIES]: enterEntries };
}

import type { Annotations } from "../../../shared/protocol/content.ts";
import type { CacheHint } from "../../../shared/protocol/results.ts";
import {
  UriTemplate,
  type TemplateParams,
  type TemplateVariables,
} from "../../../shared/uri-template.ts";
import type { HandlerContext } from "../context/context.ts";
import type { ReadReturn } from "../results/resource.ts";
import type { Display } from "./display.ts";
import type { EntryMethods } from "./features.ts";

export type ResourceDefinition = Display & {
  uri: string;
  name: string;
  mimeType?: string;
  annotations?: Annotations;
  size?: number;
  /** Cache hint for reads of this resource (defaults to the server's). */
  cache?: CacheHint;
  read(ctx: HandlerContext): Promise<ReadReturn> | ReadReturn;
};

/** A resource as a server takes it: made by `resource()`, which brings the resources methods. */
export type ResourceEntry = ResourceDefinition & EntryMethods;

/** Completion candidates; the runtime caps them at 100 and fills `total`/`hasMore`. */
export type CompletionReturn = string[] | { values: string[]; total?: number; hasMore?: boolean };

export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
  ctx: HandlerContext,
) => Promise<CompletionReturn> | CompletionReturn;

export type ResourceTemplateDefinition<T extends string = string> = Display & {
  uriTemplate: T;
  name: string;
  mimeType?: string;
  annotations?: Annotations;
  cache?: CacheHint;
  /** Completion of the template's variables for `completion/complete`. */
  complete?: Partial<Record<TemplateVariables<T>, Completer>>;
  /** Concrete resources of this template to include in `resources/list`. */
  list?(ctx: HandlerContext): Promise<ListedResource[]> | ListedResource[];
  /** Reads one matching URI; `undefined` means there is no such resource. */
  read(
    params: TemplateParams<T>,
    uri: string,
    ctx: HandlerContext,
  ): Promise<ReadReturn | undefined> | ReadReturn | undefined;
};

export type ListedResource = Omit<ResourceDefinition, "read" | "cache">;

/** A resource template as a server takes it: made by `resourceTemplate()`. */
export type TemplateEntry = ResourceTemplateDefinition &
  EntryMethods & {
    /** Parses the RFC 6570 template (throws on a malformed one); the catalog calls it once. */
    compile(): UriTemplate;
  };

/**
 * A template's definition with its parser: the parser comes with `resourceTemplate()`, so a
 * server without templates does not carry it.
 */
export function templateWithParser<T extends string>(
  definition: ResourceTemplateDefinition<T>,
): Omit<TemplateEntry, keyof EntryMethods> {
  return {
    ...(definition as unknown as ResourceTemplateDefinition),
    compile: () => new UriTemplate(definition.uriTemplate),
  };
}

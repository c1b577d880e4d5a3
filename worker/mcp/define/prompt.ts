import type * as z from "zod/mini";
import type { PromptArgument } from "../../../shared/protocol/primitives.ts";
import type { HandlerContext } from "../context/context.ts";
import type { PromptReturn } from "../results/prompt.ts";
import type { Display } from "./display.ts";
import type { EntryMethods } from "./features.ts";
import type { Completer } from "./resource.ts";

// Prompt arguments are strings on the wire, so a prompt's schema has string (or optional) fields.
export type PromptArgs = z.core.$ZodObject<
  Record<string, z.core.$ZodType<string | undefined, string | undefined>>
>;

export type PromptDefinition<A extends PromptArgs = PromptArgs> = Display & {
  name: string;
  /** Arguments as a zod object of strings; descriptions come from `.describe()` (or `z.describe()`). */
  args?: A;
  /**
   * The argument list to advertise when there is no `args` schema (e.g. a prompt relayed from
   * elsewhere); only the presence of required arguments is checked.
   */
  arguments?: PromptArgument[];
  complete?: Partial<Record<keyof z.input<A> & string, Completer>>;
  get(args: z.output<A>, ctx: HandlerContext): Promise<PromptReturn> | PromptReturn;
};

/** A prompt as a server takes it: made by `prompt()`, which brings the prompts methods. */
export type PromptEntry = PromptDefinition & EntryMethods;

import * as z from "zod/mini";
import type { Caller } from "./caller.ts";

/**
 * What a caller without a credential may do once the deployment has credentials configured:
 * `"none"` (every request needs a credential), `"read-only"` (everything but calling a tool that
 * is not annotated `readOnlyHint: true`), or `"all"`. Without any credential configured, every
 * caller is anonymous and this does not apply.
 */
export type AnonymousAccess = "none" | "read-only" | "all";

/**
 * One rule of a policy. `who` names the callers it is for: `"*"` (everyone), `"anonymous"`,
 * `"authenticated"`, `"subject:<glob>"`, `"role:<role>"` or `"scope:<scope>"`. `methods` and
 * `names` are glob patterns (`*` any run of characters, `?` one) on the JSON-RPC method and on
 * what it names (a tool or prompt name, a resource URI; hub names carry their `server__`
 * prefix); a rule with `names` applies only to requests that name something. Rules are tried in
 * order; the first that matches decides (`effect`, default `"allow"`); none matching allows.
 */
export type PolicyRule = {
  who: string | readonly string[];
  methods?: readonly string[];
  names?: readonly string[];
  effect?: "allow" | "deny";
};

export const PolicyRuleSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    who: z.union([z.string(), z.array(z.string())]),
    methods: z.optional(z.array(z.string())),
    names: z.optional(z.array(z.string())),
    effect: z.optional(z.enum(["allow", "deny"])),
  }),
);

/** What a request asks for, as the policy reads it: the method and what it names, if anything. */
export type Target = {
  method: string;
  name?: string | undefined;
  /** What the request also reaches, decided too (completing a prompt's argument: the prompt). */
  implied?: Target;
};

/** Allowed, or why not: `"unauthenticated"` (401, a credential would help) or `"forbidden"` (403). */
export type Decision = "allow" | "unauthenticated" | "forbidden";

/** How an endpoint decides: its anonymous access, whether credentials exist, and its rules. */
export type Access = {
  /** Whether the deployment has any credential configured (otherwise everyone is anonymous). */
  credentialsConfigured: boolean;
  anonymous: AnonymousAccess;
  rules: readonly CompiledRule[];
  /** A proxy of this isolate reading catalogs: it may list everything, and do nothing else. */
  catalogReader?: boolean;
  /** The endpoint's protected resource metadata URL, for challenges. */
  metadataUrl?: string;
  /**
   * The other names a tool or prompt is known by (bare on its server, prefixed on a hub), so a
   * rule means the same tool whichever endpoint serves it.
   */
  aliases?: ((name: string) => readonly string[]) | undefined;
  /** The scopes a refused caller could step up to, from its authenticator (see step-up.ts). */
  stepUp?: StepUp | undefined;
};

/**
 * For authenticators whose callers carry scopes: the scopes a refused caller would need for a
 * request (`stepUpScope`), named in the 403's challenge so an OAuth client can step up.
 */
export type StepUp = (
  access: Access,
  caller: Caller | undefined,
  target: Target,
  mutating: (tool: string) => boolean,
) => string | undefined;

type Matcher = (text: string) => boolean;
export type CompiledRule = {
  who: ((caller: Caller | undefined) => boolean)[];
  methods: Matcher[] | undefined;
  names: Matcher[] | undefined;
  effect: "allow" | "deny";
  /** The rule as written (step-up reads the scopes its `scope:` callers name). */
  rule: PolicyRule;
};

/** A glob (`*`, `?`) as a whole-string test. */
export function glob(pattern: string): Matcher {
  const source = pattern
    .split("")
    .map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\/-]/g, "\\$&")))
    .join("");
  const regex = new RegExp(`^${source}$`, "s");
  return (text) => regex.test(text);
}

function whoMatcher(spec: string): (caller: Caller | undefined) => boolean {
  if (spec === "*") return () => true;
  if (spec === "anonymous") return (caller) => caller === undefined;
  if (spec === "authenticated") return (caller) => caller !== undefined;
  const colon = spec.indexOf(":");
  const kind = spec.slice(0, colon);
  const value = spec.slice(colon + 1);
  if (colon > 0 && kind === "subject") {
    const matches = glob(value);
    return (caller) => caller !== undefined && matches(caller.subject);
  }
  if (colon > 0 && kind === "role") return (caller) => caller?.roles?.includes(value) ?? false;
  if (colon > 0 && kind === "scope") return (caller) => caller?.scopes?.includes(value) ?? false;
  throw new Error(
    `policy: "who" must be "*", "anonymous", "authenticated", "subject:<glob>", "role:<role>" or "scope:<scope>", not ${JSON.stringify(spec)}.`,
  );
}

/**
 * A URI as a template reads it (its percent-escapes decoded), so a rule on `notes://note-1` also
 * meets `notes://note-%31`; servers refuse other spellings of their ids themselves.
 */
function decoded(name: string): string[] {
  if (!name.includes("%")) return [];
  try {
    return [decodeURIComponent(name)];
  } catch {
    return [];
  }
}

/** Checks and compiles rules (a mistake throws, naming it: a policy never half-applies). */
export function compilePolicy(rules: readonly PolicyRule[]): CompiledRule[] {
  return rules.map((rule) => ({
    who: (typeof rule.who === "string" ? [rule.who] : rule.who).map(whoMatcher),
    methods: rule.methods?.map(glob),
    names: rule.names?.map(glob),
    effect: rule.effect ?? "allow",
    rule,
  }));
}

/** Rules from a variable holding a JSON array of rules; empty or unset means none. */
export function parsePolicy(text: string | undefined, variable: string): CompiledRule[] {
  if (text === undefined || text.trim() === "") return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${variable} must be a JSON array of policy rules.`);
  }
  const parsed = z.safeParse(z.array(PolicyRuleSchema), value);
  if (!parsed.success)
    throw new Error(
      `${variable} must be a JSON array of {who, methods?, names?, effect?}: ${parsed.error.issues[0]?.message ?? "invalid"}.`,
    );
  return compilePolicy(parsed.data);
}

/**
 * Decides one request. `mutating` says whether a tool exists and is not annotated
 * `readOnlyHint: true` (only asked for an anonymous `tools/call` under read-only access; a
 * call naming no tool, or one that does not exist, goes on to its own error).
 */
export function decide(
  access: Access,
  caller: Caller | undefined,
  target: Target,
  mutating: (tool: string) => boolean,
): Decision {
  if (caller === undefined && access.credentialsConfigured) {
    if (access.anonymous === "none") return "unauthenticated";
    if (
      access.anonymous === "read-only" &&
      target.method === "tools/call" &&
      target.name !== undefined &&
      mutating(target.name)
    )
      return "unauthenticated";
  }
  for (const rule of access.rules) {
    if (!rule.who.some((who) => who(caller))) continue;
    if (rule.methods && !rule.methods.some((m) => m(target.method))) continue;
    if (rule.names) {
      const { name } = target;
      if (name === undefined) continue;
      const known = [name, ...decoded(name), ...(access.aliases?.(name) ?? [])];
      if (!rule.names.some((n) => known.some(n))) continue;
    }
    if (rule.effect === "allow") return "allow";
    return caller === undefined && access.credentialsConfigured ? "unauthenticated" : "forbidden";
  }
  return "allow";
}

import { issuesLine } from "../../shared/zod-issues.ts";
import * as z from "zod/mini";
import { readVar } from "../env-vars.ts";
import type { PolicyEngine, Rules, Target } from "./access.ts";
import type { Caller } from "./caller.ts";

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

/** What `accessPolicy` is given. */
export type AccessPolicyOptions = {
  /** The rules (default: the `MCP_POLICY` variable, a JSON array of the same rules). */
  rules?: readonly PolicyRule[];
  /**
   * The other names rules know this endpoint's tools and prompts by: on a server a hub mounts
   * as `ops`, `hubNamesOf("ops")` (`ops__<name>`); on the hub, `bareNamesOf()`. A rule then
   * means the same tool through the hub and on the server's own endpoint.
   */
  names?: (name: string) => readonly string[];
};

const PolicyRuleSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    who: z.union([z.string(), z.array(z.string())]),
    methods: z.optional(z.array(z.string())),
    names: z.optional(z.array(z.string())),
    effect: z.optional(z.enum(["allow", "deny"])),
  }),
);

/**
 * The policy engine: rules on who may call which methods and names, given here or read from the
 * `MCP_POLICY` variable, checked when the endpoint first serves (a mistake answers 500 "Server
 * misconfigured", naming it: a policy never half-applies). Hand it to the endpoint:
 * `mcpHandler(server, { authenticate, policy: accessPolicy({ rules }) })`. A server without it
 * links none of this code, and refuses to serve while `MCP_POLICY` is set.
 */
export function accessPolicy(options: AccessPolicyOptions = {}): PolicyEngine {
  return {
    rules(env) {
      const rules = options.rules
        ? compilePolicy(options.rules, options.names)
        : parsePolicy(readVar(env, "MCP_POLICY"), "MCP_POLICY", options.names);
      return rules.length === 0 ? undefined : rules;
    },
  };
}

type Matcher = (text: string) => boolean;
type CompiledRule = {
  who: ((caller: Caller | undefined) => boolean)[];
  methods: Matcher[] | undefined;
  names: Matcher[] | undefined;
  effect: "allow" | "deny";
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

/** Compiled rules, tried in order. */
class CompiledRules implements Rules {
  readonly scopes: readonly string[];

  constructor(
    private readonly compiled: readonly CompiledRule[],
    written: readonly PolicyRule[],
    private readonly aliases: ((name: string) => readonly string[]) | undefined,
  ) {
    const named = written.flatMap(({ who }) =>
      (typeof who === "string" ? [who] : who)
        .filter((spec) => spec.startsWith("scope:"))
        .map((spec) => spec.slice("scope:".length)),
    );
    this.scopes = [...new Set(named)];
  }

  get length(): number {
    return this.compiled.length;
  }

  match(caller: Caller | undefined, target: Target): "allow" | "deny" | undefined {
    for (const rule of this.compiled) {
      if (!rule.who.some((who) => who(caller))) continue;
      if (rule.methods && !rule.methods.some((m) => m(target.method))) continue;
      if (rule.names) {
        const { name } = target;
        if (name === undefined) continue;
        const known = [name, ...decoded(name), ...(this.aliases?.(name) ?? [])];
        if (!rule.names.some((n) => known.some(n))) continue;
      }
      return rule.effect;
    }
    return undefined;
  }
}

/** Checks and compiles rules (a mistake throws, naming it: a policy never half-applies). */
export function compilePolicy(
  rules: readonly PolicyRule[],
  aliases?: (name: string) => readonly string[],
): Rules & { readonly length: number } {
  const compiled = rules.map((rule) => ({
    who: (typeof rule.who === "string" ? [rule.who] : rule.who).map(whoMatcher),
    methods: rule.methods?.map(glob),
    names: rule.names?.map(glob),
    effect: rule.effect ?? "allow",
  }));
  return new CompiledRules(compiled, rules, aliases);
}

/** Rules from a variable holding a JSON array of rules; empty or unset means none. */
export function parsePolicy(
  text: string | undefined,
  variable: string,
  aliases?: (name: string) => readonly string[],
): Rules & { readonly length: number } {
  if (text === undefined || text.trim() === "") return compilePolicy([], aliases);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${variable} must be a JSON array of policy rules.`);
  }
  const parsed = z.safeParse(z.array(PolicyRuleSchema), value);
  if (!parsed.success)
    throw new Error(
      `${variable} must be a JSON array of {who, methods?, names?, effect?}: ${issuesLine(parsed.error, value, 1)}.`,
    );
  return compilePolicy(parsed.data, aliases);
}

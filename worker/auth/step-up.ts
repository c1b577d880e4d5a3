import type { Caller } from "./caller.ts";
import { decide, type Access, type StepUp, type Target } from "./policy.ts";

/**
 * The scopes a caller with scopes would need for a refused request (theirs plus the first one a
 * `scope:` rule names that would allow it), so an OAuth client can ask for them and retry
 * (step-up); undefined when no scope would help. Authenticators whose callers carry scopes (JWTs,
 * sign-in) hand it to the endpoint as their `stepUp`, so a Worker without them links none of it.
 */
export const stepUpScope: StepUp = (
  access: Access,
  caller: Caller | undefined,
  target: Target,
  mutating: (tool: string) => boolean,
): string | undefined => {
  if (!caller?.scopes) return undefined;
  const held = caller.scopes;
  const named = access.rules.flatMap(({ rule }) =>
    (typeof rule.who === "string" ? [rule.who] : rule.who)
      .filter((who) => who.startsWith("scope:"))
      .map((who) => who.slice("scope:".length)),
  );
  for (const scope of new Set(named)) {
    if (held.includes(scope)) continue;
    const widened = { ...caller, scopes: [...held, scope] };
    if (decide(access, widened, target, mutating) === "allow") return [...held, scope].join(" ");
  }
  return undefined;
};

import type { Caller } from "./caller.ts";
import type { Access, StepUp, Target } from "./access.ts";
import { decide } from "./admit.ts";

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
  for (const scope of access.rules?.scopes ?? []) {
    if (held.includes(scope)) continue;
    const widened = { ...caller, scopes: [...held, scope] };
    if (decide(access, widened, target, mutating) === "allow") return [...held, scope].join(" ");
  }
  return undefined;
};

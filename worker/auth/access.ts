import type { Caller } from "./caller.ts";

// What the access gate reads: the endpoint's anonymous access (always there, a security
// default), and the rules of a policy engine when the deployment links one (`accessPolicy`).
// Types only: the gate never imports the engine that fills them.

/**
 * What a caller without a credential may do once the deployment has credentials configured:
 * `"none"` (every request needs a credential), `"read-only"` (everything but calling a tool that
 * is not annotated `readOnlyHint: true`), or `"all"`. Without any credential configured, every
 * caller is anonymous and this does not apply.
 */
export type AnonymousAccess = "none" | "read-only" | "all";

/** What a request asks for, as the policy reads it: the method and what it names, if anything. */
export type Target = {
  method: string;
  name?: string | undefined;
  /** What the request also reaches, decided too (completing a prompt's argument: the prompt). */
  implied?: Target;
};

/** Allowed, or why not: `"unauthenticated"` (401, a credential would help) or `"forbidden"` (403). */
export type Decision = "allow" | "unauthenticated" | "forbidden";

/** A deployment's rules, compiled: what the first rule that matches a request says. */
export type Rules = {
  /** The effect of the first rule for this caller that covers `target`; undefined when none does. */
  match(caller: Caller | undefined, target: Target): "allow" | "deny" | undefined;
  /** The scopes `scope:` rules name, in order (what a refused caller could step up to). */
  readonly scopes: readonly string[];
};

/**
 * A policy engine a deployment links (`accessPolicy(...)` from `edgemcp/server`): the rules for
 * a Worker's configuration, read once per isolate. A mistake in them throws, naming it (the
 * endpoint answers 500 "Server misconfigured" rather than half-apply a policy); undefined when
 * there are none.
 */
export type PolicyEngine = {
  rules(env: Cloudflare.Env): Rules | undefined;
};

/** How an endpoint decides: its anonymous access, whether credentials exist, and its rules. */
export type Access = {
  /** Whether the deployment has any credential configured (otherwise everyone is anonymous). */
  credentialsConfigured: boolean;
  anonymous: AnonymousAccess;
  /** The policy engine's rules; undefined without an engine, or with no rules. */
  rules?: Rules | undefined;
  /** A proxy of this isolate reading catalogs: it may list everything, and do nothing else. */
  catalogReader?: boolean;
  /** The endpoint's protected resource metadata URL, for challenges. */
  metadataUrl?: string;
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

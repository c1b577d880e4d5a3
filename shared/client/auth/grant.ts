import type * as oauth from "oauth4webapi";
import { authorizationCodeGrant, finishGrant, type PendingSignIn } from "./authorize.ts";
import { identify, type ClientIdentity } from "./client-identity.ts";
import type { FlowContext } from "./context.ts";
import type { Binding } from "./discover.ts";
import { AuthError } from "./errors.ts";
import type { AuthOptions } from "./options.ts";
import {
  issuerKey,
  loadIssuer,
  type AuthStore,
  type RegisteredClient,
  type TokenSet,
} from "./store.ts";
import { tokenSet, unionScopes } from "./tokens.ts";

/** What a session lends the grant: its flow, options and store. */
export type GrantParts = { ctx: FlowContext; options: AuthOptions; store: AuthStore };

/** The client to use with `as`; `authorizing` checks a kept registration against the redirect. */
export async function clientFor(
  { ctx, options, store }: GrantParts,
  as: oauth.AuthorizationServer,
  authorizing: boolean,
): Promise<RegisteredClient> {
  const identity: ClientIdentity = {
    ...(options.client ? { preRegistered: options.client } : {}),
    ...(options.clientMetadataUrl ? { metadataUrl: options.clientMetadataUrl } : {}),
    clientName: options.clientName ?? "edgemcp",
    applicationType: options.applicationType ?? "native",
    redirectUri: authorizing ? options.redirectUri : undefined,
  };
  const record = await loadIssuer(store, as.issuer);
  const { client, source } = await identify(ctx, as, identity, record.client);
  if (source !== "registered")
    ctx.report({
      step: "client",
      status: "ok",
      rule: "MCP authorization: client registration",
      summary: `Client ${client.client_id} (${source}).`,
    });
  // Kept whatever its source, so a later session that only refreshes can name the client.
  if (source !== "kept") await store.save(issuerKey(as.issuer), { ...record, client });
  return client;
}

/**
 * The authorization code grant for `scope` at the bound server: client identity, the
 * authorization page through `options.interact`, the token request. Resolves with the tokens.
 */
export async function grantTokens(
  parts: GrantParts,
  server: URL,
  binding: Binding,
  scope: string | undefined,
): Promise<TokenSet> {
  const { options, ctx } = parts;
  const { interact, redirectUri } = options;
  if (!interact || !redirectUri) {
    const hint = options.signInHint;
    throw new AuthError(
      "authorization",
      "MCP authorization",
      `${server.href} asks for sign-in${hint ? `: ${hint}` : ", and this client cannot open a sign-in page."}`,
    );
  }
  // SEP-2207: offline_access only when the authorization server lists it.
  const { as } = binding;
  const offline = as.scopes_supported?.includes("offline_access") ? "offline_access" : undefined;
  const asked = scope === undefined && !offline ? undefined : unionScopes(scope, offline);
  const client = await clientFor(parts, as, true);
  const answer = await authorizationCodeGrant(ctx, {
    server: server.href,
    binding,
    client,
    redirectUri,
    scope: asked,
    interact,
  });
  reportTokens(ctx, as, answer);
  return tokenSet(answer, asked);
}

/**
 * Finishes a sign-in whose authorization page answered after the page that started it was
 * gone: the callback checked against the pending state and issuer, the token request with its
 * verifier. Its client is kept for the issuer, as a sign-in made here would have.
 */
export async function resumeTokens(
  { ctx, store }: GrantParts,
  pending: PendingSignIn,
  returned: URL | string,
): Promise<TokenSet> {
  const answer = await finishGrant(ctx, pending, returned);
  const { as } = pending.binding;
  const record = await loadIssuer(store, as.issuer);
  await store.save(issuerKey(as.issuer), { ...record, client: pending.client });
  reportTokens(ctx, as, answer);
  return tokenSet(answer, pending.scope);
}

function reportTokens(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  answer: oauth.TokenEndpointResponse,
): void {
  ctx.report({
    step: "token",
    status: "ok",
    url: as.token_endpoint,
    httpStatus: 200,
    rule: "OAuth 2.1 §4.1.3",
    summary: `Signed in${answer.scope ? ` with scope "${answer.scope}"` : ""}${answer.expires_in === undefined ? "" : `, for ${answer.expires_in} s`}${answer.refresh_token ? ", with a refresh token" : ""}.`,
  });
}

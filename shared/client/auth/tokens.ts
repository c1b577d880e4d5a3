import * as oauth from "oauth4webapi";
import { clientAuth } from "./client-identity.ts";
import type { FlowContext } from "./context.ts";
import type { RegisteredClient, TokenSet } from "./store.ts";
import { describeTokenError } from "./token-errors.ts";

/** A token is refreshed this long before it expires, so no request carries one about to lapse. */
const EXPIRY_MARGIN_MS = 30_000;

/** Keeps a token response: its expiry made absolute, its scope as granted (else as asked). */
export function tokenSet(
  response: oauth.TokenEndpointResponse,
  asked: string | undefined,
  previous?: TokenSet,
): TokenSet {
  const refresh = response.refresh_token ?? previous?.refresh_token;
  const scope = response.scope ?? asked ?? previous?.scope;
  return {
    access_token: response.access_token,
    ...(refresh ? { refresh_token: refresh } : {}),
    ...(response.expires_in === undefined
      ? {}
      : { expires_at: Date.now() + response.expires_in * 1000 }),
    ...(scope ? { scope } : {}),
  };
}

/** True when the token has lapsed or is about to. */
export function expired(tokens: TokenSet, now = Date.now()): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS <= now;
}

/**
 * Uses a refresh token; a rotated refresh token replaces the old one (OAuth 2.1 §4.3.1), else the
 * old one is kept.
 */
export async function refresh(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  client: RegisteredClient,
  tokens: TokenSet & { refresh_token: string },
  resource: string | undefined,
): Promise<TokenSet> {
  const endpoint = as.token_endpoint ?? "";
  try {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      clientAuth(as, client),
      tokens.refresh_token,
      {
        ...ctx.options(endpoint, "refresh"),
        ...(resource ? { additionalParameters: { resource } } : {}),
      },
    );
    const answer = await oauth.processRefreshTokenResponse(as, client, response);
    ctx.report({
      step: "refresh",
      status: "ok",
      url: endpoint,
      httpStatus: 200,
      rule: "OAuth 2.1 §4.3",
      summary: answer.refresh_token ? "Refreshed; the refresh token was rotated." : "Refreshed.",
    });
    return tokenSet(answer, undefined, tokens);
  } catch (error) {
    throw describeTokenError(error, endpoint, "refresh");
  }
}

/** The union of scope strings, in first-seen order; undefined when empty. */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((scope) => scope?.split(" ").filter(Boolean) ?? []));
  return all.size ? [...all].join(" ") : undefined;
}

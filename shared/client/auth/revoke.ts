import * as oauth from "oauth4webapi";
import { clientAuth } from "./client-identity.ts";
import type { FlowContext } from "./context.ts";
import type { RegisteredClient, TokenSet } from "./store.ts";

/**
 * Revokes a sign-in's tokens at the authorization server's `revocation_endpoint` (RFC 7009), the
 * refresh token first since revoking it ends the grant. True when the server offers revocation
 * and accepted every token; a refusal or an unreachable server is false (signing out goes on:
 * the tokens are forgotten here either way).
 */
export async function revokeTokens(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  client: RegisteredClient,
  tokens: TokenSet,
): Promise<boolean> {
  const endpoint = as.revocation_endpoint;
  if (!endpoint) return false;
  const hints = [
    ...(tokens.refresh_token ? [[tokens.refresh_token, "refresh_token"] as const] : []),
    [tokens.access_token, "access_token"] as const,
  ];
  try {
    for (const [token, hint] of hints) {
      const response = await oauth.revocationRequest(as, client, clientAuth(as, client), token, {
        ...ctx.options(endpoint),
        additionalParameters: { token_type_hint: hint },
      });
      await oauth.processRevocationResponse(response);
    }
    return true;
  } catch {
    return false;
  }
}

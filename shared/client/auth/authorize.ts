import * as oauth from "oauth4webapi";
import { clientAuth } from "./client-identity.ts";
import type { FlowContext } from "./context.ts";
import type { Binding } from "./discover.ts";
import { AuthError } from "./errors.ts";
import type { RegisteredClient } from "./store.ts";
import { describeTokenError } from "./token-errors.ts";

/**
 * What finishing a sign-in needs once the authorization page has answered: kept in memory while
 * a popup or a loopback listener waits, or by a page that leaves for the authorization page in
 * its own tab and reads it back on return. Never holds tokens.
 */
export type PendingSignIn = {
  /** The MCP server's URL the sign-in is for. */
  server: string;
  binding: Binding;
  client: RegisteredClient;
  redirectUri: string;
  scope: string | undefined;
  /** PKCE's code_verifier, sent only with the token request. */
  verifier: string;
  /** The `state` sent; the callback must carry it back. */
  state: string;
};

/** What the user's agent is asked to do: open `url`, and come back to `redirectUri`. */
export type AuthorizationRequest = {
  url: URL;
  redirectUri: string;
  /** The `state` sent; the callback must carry it back. */
  state: string;
  /** Everything `finishGrant` needs, for an agent that must leave this page to sign in. */
  pending: PendingSignIn;
};

/**
 * Opens the authorization page (a popup, a browser, or a test's HTTP calls) and resolves with
 * the URL the authorization server redirected back to, query and all.
 */
export type Interact = (request: AuthorizationRequest) => Promise<URL | string>;

/** One authorization code grant's inputs. */
export type GrantInput = {
  server: string;
  /** Where the server signs in; its `resource` (RFC 8707) goes on both requests when set. */
  binding: Binding;
  client: RegisteredClient;
  redirectUri: string;
  scope: string | undefined;
};

/**
 * The authorization request with PKCE S256: a fresh code_verifier and state, and the URL to
 * open. The verifier stays in the returned `pending`, never in the URL.
 */
export async function startGrant(
  ctx: FlowContext,
  input: GrantInput,
): Promise<AuthorizationRequest> {
  const { binding, client, redirectUri } = input;
  const { as, resource } = binding;
  const endpoint = as.authorization_endpoint;
  if (!endpoint) {
    throw new AuthError(
      "server-metadata",
      "RFC 8414 §2",
      `The authorization server ${as.issuer} names no authorization_endpoint in its metadata.`,
      { fix: "The server's owner must list its authorization_endpoint." },
    );
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  if (input.scope) url.searchParams.set("scope", input.scope);
  if (resource) url.searchParams.set("resource", resource);
  ctx.report({
    step: "authorization",
    status: "ok",
    url: url.href,
    rule: "OAuth 2.1 §4.1.1; RFC 7636; RFC 8707",
    summary: `Authorization request with PKCE S256${input.scope ? `, scope "${input.scope}"` : ", no scope"}${resource ? `, resource ${resource}` : ""}.`,
  });
  const pending = { ...input, verifier, state };
  return { url, redirectUri, state, pending };
}

/**
 * The callback checked (redirect target, `state`, RFC 9207 `iss`, errors), then the token
 * request with the pending sign-in's verifier.
 */
export async function finishGrant(
  ctx: FlowContext,
  pending: PendingSignIn,
  returned: URL | string,
): Promise<oauth.TokenEndpointResponse> {
  const { client, redirectUri, verifier, state } = pending;
  const { as, resource } = pending.binding;
  const params = checkCallback(as, client, new URL(String(returned)), redirectUri, state);
  ctx.report({
    step: "callback",
    status: "ok",
    rule: "RFC 9207; OAuth 2.1 §4.1.2",
    summary: "The callback carried the state sent and a code from the expected issuer.",
  });

  const tokenEndpoint = as.token_endpoint ?? "";
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth(as, client),
      params,
      redirectUri,
      verifier,
      {
        ...ctx.options(tokenEndpoint),
        ...(resource ? { additionalParameters: { resource } } : {}),
      },
    );
    return await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    throw describeTokenError(error, tokenEndpoint, "token");
  }
}

/** The whole authorization code grant: the request, the person at the page, the token. */
export async function authorizationCodeGrant(
  ctx: FlowContext,
  input: GrantInput & { interact: Interact },
): Promise<oauth.TokenEndpointResponse> {
  const request = await startGrant(ctx, input);
  return finishGrant(ctx, request.pending, await input.interact(request));
}

function checkCallback(
  as: oauth.AuthorizationServer,
  client: RegisteredClient,
  returned: URL,
  redirectUri: string,
  state: string,
): URLSearchParams {
  const expected = new URL(redirectUri);
  if (returned.origin !== expected.origin || returned.pathname !== expected.pathname) {
    throw new AuthError(
      "callback",
      "OAuth 2.1 §4.1.2",
      `The authorization server sent the browser to ${returned.origin}${returned.pathname}, not to the redirect URI ${redirectUri}; the answer was not used.`,
      {
        fix: "The server's owner must redirect to the redirect_uri of the authorization request, exactly as registered.",
      },
    );
  }
  try {
    return oauth.validateAuthResponse(as, client, returned.searchParams, state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const description = error.error_description ? `: ${error.error_description}` : "";
      throw new AuthError(
        "callback",
        "OAuth 2.1 §4.1.2.1",
        `The authorization server refused the sign-in with "${error.error}"${description}.`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('"iss"')) {
      const iss = returned.searchParams.get("iss");
      throw iss === null
        ? new AuthError(
            "callback",
            "RFC 9207 §2.4",
            `The callback has no iss parameter, but ${as.issuer} advertises authorization_response_iss_parameter_supported; the response may come from another server and was refused.`,
            {
              fix: "The server's owner must add iss to every authorization response, or stop advertising authorization_response_iss_parameter_supported.",
            },
          )
        : new AuthError(
            "callback",
            "RFC 9207 §2.4",
            `The callback's iss is \`${iss}\` but the sign-in went to \`${as.issuer}\`: RFC 9207 §2.4 requires them to be identical, so the response was refused.`,
            {
              fix: "The server's owner must send as iss its issuer exactly as its metadata names it.",
            },
          );
    }
    if (message.includes('"state"')) {
      throw new AuthError(
        "callback",
        "OAuth 2.1 §7.12",
        "The callback's state does not match the one sent, so it may not answer this sign-in and was refused.",
        {
          fix: "The server's owner must return the state of the authorization request unchanged; if the server does, sign in again (the answer may belong to an older attempt).",
        },
      );
    }
    throw new AuthError("callback", "OAuth 2.1 §4.1.2", `The callback is unusable: ${message}.`, {
      fix: "The server's owner must redirect with a code and the state sent (OAuth 2.1 §4.1.2).",
    });
  }
}

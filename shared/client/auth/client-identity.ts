import * as oauth from "oauth4webapi";
import type { FlowContext } from "./context.ts";
import { AuthError } from "./errors.ts";
import { RegisteredClientSchema, type RegisteredClient } from "./store.ts";

/** How this client introduces itself to authorization servers. */
export type ClientIdentity = {
  /** A client id (and secret) registered beforehand; used only with `issuer` when that is set. */
  preRegistered?: RegisteredClient & { issuer?: string };
  /** The URL of this client's Client ID Metadata Document, for servers that accept one. */
  metadataUrl?: string;
  /** The client's name and kind, for dynamic registration. */
  clientName: string;
  applicationType: "native" | "web";
  /** Undefined when only refreshing, which never registers. */
  redirectUri: string | undefined;
};

/** Which way the client identified itself, for the flow view. */
export type ClientSource = "pre-registered" | "metadata-document" | "kept" | "registered";

/**
 * The client id to use with an issuer, in the spec's order: pre-registered, a Client ID Metadata
 * Document when the server advertises support, a registration kept for this issuer, then dynamic
 * registration (RFC 7591).
 */
export async function identify(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  kept: RegisteredClient | undefined,
): Promise<{ client: RegisteredClient; source: ClientSource }> {
  const pre = identity.preRegistered;
  if (pre && (pre.issuer === undefined || pre.issuer === as.issuer)) {
    return { client: pre, source: "pre-registered" };
  }
  if (identity.metadataUrl && as.client_id_metadata_document_supported === true) {
    return {
      client: { client_id: identity.metadataUrl, token_endpoint_auth_method: "none" },
      source: "metadata-document",
    };
  }
  // A registration made for another redirect URI (an earlier loopback port) cannot take this one.
  const redirect = identity.redirectUri;
  if (kept && (!redirect || !kept.redirect_uris || kept.redirect_uris.includes(redirect))) {
    return { client: kept, source: "kept" };
  }
  if (!as.registration_endpoint) {
    throw new AuthError(
      "client",
      "MCP authorization: client registration",
      `The authorization server ${as.issuer} has no registration_endpoint and does not accept Client ID Metadata Documents, so this client cannot identify itself.`,
      {
        fix: "Register a client with the server's owner and pass its client id, or the owner must offer dynamic registration or Client ID Metadata Documents.",
      },
    );
  }
  if (!redirect) {
    throw new AuthError("client", "RFC 7591 §2", "Registering a client needs a redirect URI.");
  }
  return { client: await register(ctx, as, identity, redirect), source: "registered" };
}

/** The token endpoint authentication to ask for: none when the server allows public clients. */
function wantedAuthMethod(as: oauth.AuthorizationServer): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (supported.includes("none")) return "none";
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  return supported.includes("client_secret_post") ? "client_secret_post" : "none";
}

async function register(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  redirectUri: string,
): Promise<RegisteredClient> {
  const endpoint = as.registration_endpoint ?? "";
  const offline = as.grant_types_supported?.includes("refresh_token") ?? true;
  const metadata = {
    client_name: identity.clientName,
    redirect_uris: [redirectUri],
    grant_types: offline ? ["authorization_code", "refresh_token"] : ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: wantedAuthMethod(as),
    application_type: identity.applicationType,
  };
  let answer: unknown;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      ctx.options(endpoint, "client"),
    );
    answer = await processRegistration(response);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError(
      "client",
      "RFC 7591 §3",
      `Dynamic client registration at ${endpoint} failed: ${error instanceof Error ? error.message : String(error)}.`,
      {
        fix: "The server's owner must answer a registration request with 201 and the client's metadata as JSON (RFC 7591 §3.2.1).",
        url: endpoint,
      },
    );
  }
  const parsed = RegisteredClientSchema.safeParse(answer);
  if (!parsed.success) {
    throw new AuthError(
      "client",
      "RFC 7591 §3.2.1",
      `The registration answer from ${endpoint} has no client_id.`,
      { fix: "The server's owner must return the client_id it issued.", url: endpoint },
    );
  }
  const uris = parsed.data.redirect_uris;
  if (uris && !(uris.length === 1 && uris[0] === redirectUri)) {
    throw new AuthError(
      "client",
      "RFC 7591 §3.2.1",
      `The registration answer from ${endpoint} changed the redirect URIs to ${JSON.stringify(uris)}; the client asked for ${JSON.stringify([redirectUri])} and will not send codes anywhere else.`,
      {
        fix: "The server's owner must register the redirect URIs the client sent, unchanged, or refuse the registration with invalid_redirect_uri.",
        url: endpoint,
      },
    );
  }
  ctx.report({
    step: "client",
    status: "ok",
    url: endpoint,
    httpStatus: 201,
    rule: "RFC 7591 §3.2.1",
    summary: `Registered as client ${parsed.data.client_id}.`,
  });
  return parsed.data;
}

/**
 * Reads a registration answer with oauth4webapi. RFC 7591 requires client_secret_expires_at with
 * a secret, but servers (the conformance suite's among them) omit it: an answer lacking only
 * that is read as a secret that does not expire (the RFC's 0).
 */
async function processRegistration(response: Response): Promise<unknown> {
  const copy = response.clone();
  try {
    return await oauth.processDynamicClientRegistrationResponse(response);
  } catch (error) {
    const body: unknown = await copy.json().catch(() => undefined);
    const lacksExpiry =
      error instanceof oauth.OperationProcessingError &&
      error.message.includes("client_secret_expires_at") &&
      typeof body === "object" &&
      body !== null &&
      !("client_secret_expires_at" in body);
    if (!lacksExpiry) throw error;
    return { ...body, client_secret_expires_at: 0 };
  }
}

/** How the client authenticates at the token endpoint: as registered, else as the server prefers. */
export function clientAuth(
  as: oauth.AuthorizationServer,
  client: RegisteredClient,
): oauth.ClientAuth {
  const secret = client.client_secret;
  if (!secret) return oauth.None();
  const supported = as.token_endpoint_auth_methods_supported;
  const postOnly =
    supported &&
    !supported.includes("client_secret_basic") &&
    supported.includes("client_secret_post");
  // RFC 7591 §2: a registration that names no method means client_secret_basic.
  const method =
    client.token_endpoint_auth_method ?? (postOnly ? "client_secret_post" : "client_secret_basic");
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  if (method === "none") return oauth.None();
  return clientSecretBasic(secret);
}

/** RFC 6749 Appendix B's encoding: the platform's application/x-www-form-urlencoded serializer. */
const formEncode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * client_secret_basic (RFC 6749 §2.3.1). oauth4webapi's version also escapes "-", ".", "_" and
 * "*", which the form encoding leaves as they are; servers that compare the id without decoding
 * it (the conformance suite's among them) then see another client id.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set(
      "authorization",
      `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(secret)}`)}`,
    );
  };
}

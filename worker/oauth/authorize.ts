import {
  AuthorizationError,
  CimdFetchError,
  type AuthRequest,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { readVar } from "../env-vars.ts";
import { readRequestBody } from "../http/body.ts";
import { HttpError } from "../http/http-error.ts";
import { isLocalHost } from "../http/origin.ts";
import type { DemoUser, ProtectedEndpoint, SignInOptions } from "./options.ts";
import { consentPage, htmlResponse, messagePage } from "./page.ts";
import { loopbackClients, refusedClientId } from "./client-id.ts";
import { sessionCookie } from "./session.ts";
import type { Upstream } from "./upstream.ts";

// A consent form is a handle, a choice and a user: anything bigger is not one.
const MAX_FORM_BYTES = 4096;

/** What the authorization page needs besides the request. */
export type AuthorizeContext = {
  options: SignInOptions;
  oauth: OAuthHelpers;
  env: Cloudflare.Env;
  upstream: Upstream | undefined;
};

/** GET shows who asks for what and how to sign in; POST is the answer. */
export async function authorize(request: Request, context: AuthorizeContext): Promise<Response> {
  try {
    if (request.method === "GET") return await show(request, context);
    if (request.method === "POST") return await answer(request, context);
    return messagePage(
      405,
      "Not allowed",
      "The sign-in page is opened with GET and answered with POST.",
    );
  } catch (error) {
    return refusal(error);
  }
}

async function show(request: Request, context: AuthorizeContext): Promise<Response> {
  const { oauth, options } = context;
  const clientId = new URL(request.url).searchParams.get("client_id");
  const refused =
    clientId === null
      ? undefined
      : refusedClientId(clientId, loopbackClients(request, context.env));
  if (refused) return messagePage(400, "This app cannot sign in here", refused);
  const authRequest = await oauth.parseAuthRequest(request);
  const endpoint = endpointOf(options, authRequest);
  const users = demoUsers(request, context);
  if (users.length === 0 && !context.upstream)
    return messagePage(
      503,
      "Sign-in is not set up",
      "This server has no way to sign people in yet: its operator must configure an upstream provider (OAUTH_UPSTREAM) or turn on the development login.",
    );
  const details = await oauth.describeConsent(authRequest);
  const consent = await oauth.beginConsent(authRequest);
  const known = (readVar(context.env, "OAUTH_KNOWN_CLIENT_HOSTS") ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  const html = consentPage({
    service: options.title ?? new URL(request.url).host,
    details,
    unknownHost: details.clientDomain !== undefined && !known.includes(details.clientDomain),
    server: { name: endpoint.name, resource: authRequest.resource ?? "" },
    scopes: granted(options, endpoint, authRequest.scope).map((scope) => ({
      scope,
      words: options.scopes[scope] ?? scope,
    })),
    users,
    ...(context.upstream ? { upstream: context.upstream.name } : {}),
    handle: consent.handle,
  });
  return htmlResponse(html, 200, consent.headers);
}

async function answer(request: Request, context: AuthorizeContext): Promise<Response> {
  const { oauth, options } = context;
  let form: URLSearchParams;
  try {
    const bytes = await readRequestBody(request, { maxBytes: MAX_FORM_BYTES, deadlineMs: 10_000 });
    form = new URLSearchParams(new TextDecoder().decode(bytes));
  } catch (error) {
    if (error instanceof HttpError)
      return messagePage(error.status, "The form could not be read", error.message);
    throw error;
  }
  const handle = String(form.get("handle") ?? "");
  if (form.get("decision") !== "allow") {
    const denied = await oauth.denyConsent(request, handle);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  const choice = String(form.get("user") ?? "");
  const user = demoUsers(request, context).find((candidate) => candidate.id === choice);
  const viaUpstream = choice === "upstream" && context.upstream;
  if (!user && !viaUpstream)
    return messagePage(400, "Choose who signs in", "Pick one of the offered ways to sign in.");
  const approved = await oauth.approveConsent(request, handle);
  const endpoint = endpointOf(options, approved.request);
  const scope = granted(options, endpoint, approved.request.scope);
  const original = { ...approved.request, scope };
  if (viaUpstream) return context.upstream!.begin(request, oauth, original, approved.headers);
  const { redirectTo } = await oauth.completeAuthorization({
    request: original,
    userId: user!.id,
    metadata: { name: user!.name, login: "development" },
    scope,
    props: { name: user!.name, roles: [...(user!.roles ?? [])], login: "development" },
  });
  approved.headers.set("Location", redirectTo);
  approved.headers.append("Set-Cookie", await sessionCookie(context.env, user!.id));
  return new Response(null, { status: 302, headers: approved.headers });
}

/** The endpoint a parsed request is for (the library checked it is one of them). */
export function endpointOf(options: SignInOptions, authRequest: AuthRequest): ProtectedEndpoint {
  const path = authRequest.resource ? new URL(authRequest.resource).pathname : "";
  const endpoint = options.endpoints.find((candidate) => candidate.path === path);
  if (!endpoint)
    throw new AuthorizationError("invalid_target", { description: "Unknown resource." });
  return endpoint;
}

/** What a token gets: the scopes asked for that this server grants, and the endpoint's baseline. */
export function granted(
  options: SignInOptions,
  endpoint: ProtectedEndpoint,
  asked: readonly string[],
): string[] {
  const offered = new Set([...Object.keys(options.scopes), "offline_access"]);
  return [
    ...new Set([...(endpoint.baseline ?? []), ...asked.filter((scope) => offered.has(scope))]),
  ];
}

/** The development login's users, where it is allowed: loopback, or turned on explicitly. */
function demoUsers(request: Request, context: AuthorizeContext): readonly DemoUser[] {
  const allowed =
    isLocalHost(new URL(request.url).hostname) ||
    readVar(context.env, "OAUTH_DEV_LOGIN")?.trim() === "on";
  return allowed ? (context.options.demoUsers ?? []) : [];
}

/** The library's refusals as a page; a validated client's error goes back to it. */
export function refusal(error: unknown): Response {
  if (error instanceof AuthorizationError) {
    if (error.redirectTo) return Response.redirect(error.redirectTo, 302);
    return messagePage(
      400,
      "This sign-in cannot go on",
      `${error.description} Start again from your app.`,
    );
  }
  if (error instanceof CimdFetchError)
    return messagePage(
      400,
      "This app could not be verified",
      "Its client metadata document could not be fetched or is not valid (too large, too slow, not JSON, or naming another client).",
    );
  throw error;
}

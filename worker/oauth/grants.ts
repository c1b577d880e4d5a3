import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { readRequestBody } from "../http/body.ts";
import { HttpError } from "../http/http-error.ts";
import type { SignInOptions } from "./options.ts";
import { escapeHtml, htmlResponse, messagePage, page } from "./page.ts";
import { PATHS } from "./server.ts";
import { formToken, sessionOf, SIGNED_OUT } from "./session.ts";

const MAX_GRANTS = 100;

/**
 * The signed-in person's grants: which apps may reach which servers with which scopes, each with
 * Revoke (its tokens stop working at once), and Sign out. GET shows, POST acts; a POST must carry
 * the page's form token, which only this Worker can make for this browser's session.
 */
export async function grants(
  request: Request,
  env: Cloudflare.Env,
  oauth: OAuthHelpers,
  options: SignInOptions,
): Promise<Response> {
  const session = await sessionOf(request, env);
  if (!session)
    return messagePage(
      401,
      "Not signed in",
      "This page lists the apps you allowed once you sign in to one of them here.",
    );
  const token = await formToken(env, session.value);
  if (request.method === "POST") {
    let form: URLSearchParams;
    try {
      const bytes = await readRequestBody(request, { maxBytes: 4096, deadlineMs: 10_000 });
      form = new URLSearchParams(new TextDecoder().decode(bytes));
    } catch (error) {
      if (error instanceof HttpError)
        return messagePage(error.status, "The form could not be read", error.message);
      throw error;
    }
    if (form.get("token") !== token)
      return messagePage(
        403,
        "Refused",
        "This form did not come from this page. Open the page again.",
      );
    if (form.get("action") === "sign-out") {
      const headers = new Headers({ "Set-Cookie": SIGNED_OUT });
      return htmlResponse(
        page("Signed out", "<h1>Signed out</h1><p>This browser no longer shows your grants.</p>"),
        200,
        headers,
      );
    }
    const grant = form.get("grant") ?? "";
    if (grant) await oauth.revokeGrant(grant, session.userId);
    return new Response(null, { status: 303, headers: { Location: PATHS.grants } });
  }
  if (request.method !== "GET") return messagePage(405, "Not allowed", "Use GET or POST.");
  const listed = await oauth.listUserGrants(session.userId, { limit: MAX_GRANTS });
  const rows = await Promise.all(
    listed.items.map(async (grant) => {
      const client = await oauth.lookupClient(grant.clientId).catch(() => null);
      const resource = Array.isArray(grant.resource)
        ? grant.resource.join(", ")
        : (grant.resource ?? "");
      const path = resource ? new URL(resource).pathname : "";
      const server = options.endpoints.find((endpoint) => endpoint.path === path)?.name ?? resource;
      return `<tr><td>${escapeHtml(client?.clientName ?? grant.clientId)}</td><td>${escapeHtml(server)}</td>
<td>${grant.scope.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(" ")}</td>
<td>${escapeHtml(new Date(grant.createdAt * 1000).toISOString().slice(0, 16).replace("T", " "))}</td>
<td><form method="post"><input type="hidden" name="token" value="${token}"><input type="hidden" name="grant" value="${escapeHtml(grant.id)}">
<button aria-label="Revoke ${escapeHtml(client?.clientName ?? grant.clientId)} on ${escapeHtml(server)}">Revoke</button></form></td></tr>`;
    }),
  );
  const table = rows.length
    ? `<table><caption>Apps you allowed</caption><thead><tr><th scope="col">App</th><th scope="col">Server</th><th scope="col">Scopes</th><th scope="col">Allowed (UTC)</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${rows.join("")}</tbody></table>`
    : "<p>No app may act for you.</p>";
  return htmlResponse(
    page(
      "Your sign-ins",
      `<h1>Your sign-ins</h1><p class="muted">Signed in as <strong>${escapeHtml(session.userId)}</strong>. Revoking stops an app's tokens at once.</p>${table}
<form method="post"><input type="hidden" name="token" value="${token}"><input type="hidden" name="action" value="sign-out"><div class="actions"><button>Sign out</button></div></form>`,
    ),
  );
}

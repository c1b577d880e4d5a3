import { readVar } from "../env-vars.ts";
import { readRequestBody } from "../http/body.ts";
import { HttpError } from "../http/http-error.ts";
import { isLocalHost } from "../http/origin.ts";

// A token request is a handful of short fields; anything bigger is not one.
const MAX_TOKEN_REQUEST_BYTES = 16 * 1024;

/**
 * Whether client metadata documents on loopback are accepted: only by a Worker itself served on
 * loopback whose operator turned it on (`OAUTH_LOCAL_CLIENT_IDS`), to try a host on this machine.
 */
export function loopbackClients(request: Request, env: Cloudflare.Env): boolean {
  return (
    isLocalHost(new URL(request.url).hostname) &&
    readVar(env, "OAUTH_LOCAL_CLIENT_IDS")?.trim() === "on"
  );
}

/**
 * A token request checked the way the sign-in page checks its client (the library fetches a
 * client metadata document named at the token endpoint too): the request to hand on, its body
 * read once, or the OAuth error that refuses it.
 */
export async function checkedTokenRequest(
  request: Request,
  env: Cloudflare.Env,
): Promise<{ request: Request } | { refusal: Response }> {
  let body: Uint8Array;
  try {
    body = await readRequestBody(request, {
      maxBytes: MAX_TOKEN_REQUEST_BYTES,
      deadlineMs: 10_000,
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const refusal = { error: "invalid_request", error_description: error.message };
    return { refusal: Response.json(refusal, { status: error.status }) };
  }
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const clientId = form.get("client_id") ?? basicUser(request.headers.get("Authorization"));
  const refused = clientId && refusedClientId(clientId, loopbackClients(request, env));
  if (refused)
    return {
      refusal: Response.json(
        { error: "invalid_client", error_description: refused },
        { status: 401 },
      ),
    };
  return { request: new Request(request, { body }) };
}

/** The client ID of HTTP Basic client authentication (RFC 6749 §2.3.1: form-encoded). */
function basicUser(header: string | null): string | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header ?? "")?.[1];
  if (!encoded) return undefined;
  try {
    const decoded = atob(encoded);
    return decodeURIComponent(decoded.slice(0, decoded.indexOf(":")).replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * Why a client ID that is a URL (a Client ID Metadata Document) is refused before anything
 * fetches it: a host that names this network rather than the internet (loopback, private and
 * link-local ranges, `.local`, `.internal`, a bare name). On Cloudflare the
 * `global_fetch_strictly_public` flag refuses such fetches too; this also holds under
 * `wrangler dev` and says so in words. `loopback` lets a document on this machine through (a
 * Worker served on loopback, whose operator asked for it: a host under test here). Undefined
 * for any other client ID.
 */
export function refusedClientId(clientId: string, loopback = false): string | undefined {
  if (!/^https?:\/\//i.test(clientId)) return undefined;
  let host: string;
  try {
    host = new URL(clientId).hostname.toLowerCase();
  } catch {
    return "Its client ID is not a valid URL.";
  }
  if (loopback && isLocalHost(host)) return undefined;
  return privateHost(host)
    ? "Its client ID names a private or local address: a client metadata document must be on the public internet."
    : undefined;
}

function privateHost(host: string): boolean {
  if (host.startsWith("[")) {
    const v6 = host.slice(1, -1);
    return (
      v6 === "::1" ||
      v6 === "::" ||
      /^f[cd]/.test(v6) ||
      /^fe[89ab]/.test(v6) ||
      v6.startsWith("::ffff:")
    );
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  return (
    !host.includes(".") ||
    host === "localhost" ||
    /\.(localhost|local|internal|lan|home\.arpa)$/.test(host)
  );
}

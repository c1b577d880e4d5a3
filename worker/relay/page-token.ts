import { isLocalRequest, keyringOf } from "../state/keyring.ts";
import { Sealer } from "../state/sealer.ts";
import { RelayRefusal } from "./refusal.ts";

const PURPOSE = "relay page";
/** How long a page token lasts; the page asks for a new one when refused. */
export const PAGE_TOKEN_TTL_MS = 12 * 60 * 60_000;

/** The caller a page token stands for: its subject once authenticated, or its address. */
export type TokenClaims = { caller: string };

/**
 * The Worker's own origin, from the request's URL: what a page token is bound to and what the
 * `Origin` of every relay request must be (a page on another site sends its own origin).
 */
export function requireOwnOrigin(request: Request): string {
  const own = new URL(request.url).origin;
  const origin = request.headers.get("Origin");
  if (origin !== own)
    throw new RelayRefusal(
      403,
      "origin",
      origin === null
        ? "The relay serves this Worker's own page only: the request has no Origin."
        : `The relay serves this Worker's own page only, not ${origin}.`,
    );
  return own;
}

async function sealerFor(env: Cloudflare.Env, request: Request): Promise<Sealer> {
  try {
    return new Sealer(await keyringOf(env, { local: isLocalRequest(request) }));
  } catch {
    throw new RelayRefusal(
      500,
      "misconfigured",
      "The relay needs EDGEMCP_SECRET (32+ random characters) to sign page tokens: npx wrangler secret put EDGEMCP_SECRET.",
    );
  }
}

/**
 * A token for this page, sealed to the Worker's origin with the caller it stands for. Only a
 * script of the page can read it: the token endpoint sends no CORS headers, so a page on another
 * site can make the Worker mint one but never see it.
 */
export async function mintPageToken(
  env: Cloudflare.Env,
  request: Request,
  claims: TokenClaims,
): Promise<string> {
  const origin = requireOwnOrigin(request);
  return (await sealerFor(env, request)).seal(PURPOSE, origin, claims, PAGE_TOKEN_TTL_MS);
}

/** The claims of the request's `Relay-Token`, or a refusal saying how to get a valid one. */
export async function openPageToken(env: Cloudflare.Env, request: Request): Promise<TokenClaims> {
  const origin = requireOwnOrigin(request);
  const token = request.headers.get("Relay-Token");
  const refuse = (why: string) =>
    new RelayRefusal(
      403,
      "page-token",
      `${why} The page gets one from POST /relay/token, which only this Worker's page can read.`,
    );
  if (token === null) throw refuse("The relay needs this page's Relay-Token.");
  const sealer = await sealerFor(env, request);
  let claims: unknown;
  try {
    claims = await sealer.open(PURPOSE, origin, token);
  } catch {
    throw refuse(
      "The Relay-Token is not valid for this page (altered, expired, or from another deployment).",
    );
  }
  const caller: unknown =
    typeof claims === "object" && claims ? Reflect.get(claims, "caller") : undefined;
  if (typeof caller !== "string") throw refuse("The Relay-Token is not valid for this page.");
  return { caller };
}

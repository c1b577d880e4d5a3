import { readVar } from "../env-vars.ts";

// Who signed in on this browser, for the grant list: `<user>.<expiry>.<HMAC>`, signed with the
// Worker's EDGEMCP_SECRET (WebCrypto), host-only, never sent cross-site, readable by no script.
const COOKIE = "__Host-edgemcp-signed-in";
const LIFETIME_S = 12 * 3600;
const encoder = new TextEncoder();

async function key(env: Cloudflare.Env): Promise<CryptoKey> {
  const secret = readVar(env, "EDGEMCP_SECRET");
  if (!secret) throw new Error("EDGEMCP_SECRET is not set: sign-in's session cannot be signed.");
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(`sign-in session:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The `Set-Cookie` value that remembers `userId` on this browser. */
export async function sessionCookie(env: Cloudflare.Env, userId: string): Promise<string> {
  const payload = `${encodeURIComponent(userId)}.${Math.floor(Date.now() / 1000) + LIFETIME_S}`;
  const mac = base64url(await crypto.subtle.sign("HMAC", await key(env), encoder.encode(payload)));
  return `${COOKIE}=${payload}.${mac}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${LIFETIME_S}`;
}

/** The `Set-Cookie` value that forgets it. */
export const SIGNED_OUT = `${COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`;

/** The signed-in user of a request and the session's value, if it carries a valid session. */
export async function sessionOf(
  request: Request,
  env: Cloudflare.Env,
): Promise<{ userId: string; value: string } | undefined> {
  const cookie = request.headers.get("Cookie") ?? "";
  const value = cookie
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  const [user, expiry, mac] = value?.split(".") ?? [];
  if (!value || !user || !expiry || !mac || Number(expiry) < Date.now() / 1000) return undefined;
  const expected = base64url(
    await crypto.subtle.sign("HMAC", await key(env), encoder.encode(`${user}.${expiry}`)),
  );
  const a = encoder.encode(expected);
  const b = encoder.encode(mac);
  if (a.byteLength !== b.byteLength || !crypto.subtle.timingSafeEqual(a, b)) return undefined;
  return { userId: decodeURIComponent(user), value };
}

/** A form token bound to the session, so only this Worker's own page can post for it. */
export async function formToken(env: Cloudflare.Env, session: string): Promise<string> {
  return base64url(
    await crypto.subtle.sign("HMAC", await key(env), encoder.encode(`form:${session}`)),
  );
}

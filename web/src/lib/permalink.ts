import { isRecord } from "./json.ts";
import { isSecretHeader } from "../../../shared/secret-headers.ts";

/** Which request a permalink reopens. */
export type RequestKind = "tool" | "prompt" | "resource" | "template";

/** What a permalink carries: where to connect and the request, ready to send. */
export type Permalink = {
  url: string;
  era: "auto" | "modern" | "legacy";
  kind: RequestKind;
  /** Tool or prompt name, resource URI or URI template. */
  name: string;
  /** Tool arguments, prompt arguments or template variables. */
  args?: unknown;
  /** Headers to send, secrets left out. */
  headers?: Record<string, string>;
  /** Names of secret headers that were set but not carried (the page asks for them). */
  secretHeaders?: string[];
  /**
   * When encoding: the names of headers the user marked as safe to share. Every other header
   * the user entered is taken as secret (a key may be named anything: `X-Auth-Key`,
   * `Ocp-Apim-Subscription-Key`), and only its name goes into the link.
   */
  shareable?: readonly string[];
};

// A header name is an RFC 9110 token; anything else (padding, spaces, colons) is no header.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether a header may travel with its value: a plain token, marked shareable, never a credential. */
const carried = (name: string, shareable: ReadonlySet<string>) =>
  TOKEN.test(name) && shareable.has(name.toLowerCase()) && !isSecretHeader(name);

/** How a permalink's hash starts. */
export const PERMALINK_PREFIX = "#request=";
const KINDS: readonly string[] = ["tool", "prompt", "resource", "template"];
const ERAS: readonly string[] = ["auto", "modern", "legacy"];

function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const bytes = Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) =>
    c.charCodeAt(0),
  );
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

/**
 * The URL fragment for a request. Header values go into it only for the headers marked
 * shareable; every other header travels as its name, for the page to ask for.
 */
export function encodePermalink(link: Permalink): string {
  const headers: Record<string, string> = {};
  const secrets: string[] = [...(link.secretHeaders ?? [])];
  const shareable = new Set((link.shareable ?? []).map((name) => name.trim().toLowerCase()));
  for (const [written, value] of Object.entries(link.headers ?? {})) {
    const name = written.trim();
    if (!TOKEN.test(name)) continue;
    if (carried(name, shareable)) headers[name] = value;
    else secrets.push(name);
  }
  const payload = {
    v: 1,
    url: link.url,
    era: link.era,
    kind: link.kind,
    name: link.name,
    ...(link.args === undefined ? {} : { args: link.args }),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(secrets.length > 0 ? { secretHeaders: [...new Set(secrets)] } : {}),
  };
  return PERMALINK_PREFIX + toBase64Url(JSON.stringify(payload));
}

/** Reads a permalink fragment; undefined when the fragment is not one, an error text when broken. */
export function decodePermalink(hash: string): Permalink | string | undefined {
  if (!hash.startsWith(PERMALINK_PREFIX)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(fromBase64Url(hash.slice(PERMALINK_PREFIX.length)));
  } catch {
    return "The link's request is damaged (not readable); it may have been cut off.";
  }
  if (!isRecord(data) || data.v !== 1)
    return "The link was made by another version of the playground.";
  const { url, era, kind, name, args, headers, secretHeaders } = data;
  if (
    typeof url !== "string" ||
    typeof name !== "string" ||
    !KINDS.includes(String(kind)) ||
    !ERAS.includes(String(era))
  )
    return "The link's request is incomplete.";
  // A link is anyone's text: a header it sets must be a plain name and no credential (a
  // padded " Authorization" would be trimmed into one when sent).
  const safeHeaders = isRecord(headers)
    ? Object.fromEntries(
        Object.entries(headers).filter(
          (e): e is [string, string] =>
            typeof e[1] === "string" && TOKEN.test(e[0]) && !isSecretHeader(e[0]),
        ),
      )
    : undefined;
  return {
    url,
    era: era as Permalink["era"],
    kind: kind as RequestKind,
    name,
    ...(args === undefined ? {} : { args }),
    ...(safeHeaders && Object.keys(safeHeaders).length > 0 ? { headers: safeHeaders } : {}),
    ...(Array.isArray(secretHeaders)
      ? {
          secretHeaders: secretHeaders.filter(
            (h): h is string => typeof h === "string" && TOKEN.test(h),
          ),
        }
      : {}),
  };
}

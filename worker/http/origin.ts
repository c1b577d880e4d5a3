const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a host name is this machine: localhost (and its subdomains), [::1], 127.x.x.x. */
export function isLocalHost(host: string): boolean {
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/** Which browser origins may call the MCP endpoints. */
export type OriginPolicy = {
  /** Extra allowed origins (exact `scheme://host[:port]`), or "*" for any. */
  allowed: readonly string[];
};

/** Parses a comma-separated allowlist such as the `ALLOWED_ORIGINS` variable. */
export function parseOriginList(text: string | undefined): string[] {
  const origins: string[] = [];
  // A loop rather than map and filter, whose callbacks each new isolate would compile.
  for (const part of (text ?? "").split(",")) {
    const origin = part.trim().replace(/\/+$/, "");
    if (origin !== "") origins.push(origin);
  }
  return origins;
}

/**
 * Whether a request's `Origin` may use the endpoint: localhost (any port), the configured list,
 * and the Worker's own `*.workers.dev` origin. Checked on every request against DNS rebinding:
 * a rebound page sends a `Host` equal to its `Origin`, so "same origin as the request" is only
 * trusted for hosts an attacker cannot point at this machine. Custom domains go in the list.
 */
export function isAllowedOrigin(origin: string, requestUrl: string, policy: OriginPolicy): boolean {
  if (policy.allowed.includes("*") || policy.allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (LOCAL_HOSTS.has(url.hostname)) return true;
  return url.hostname.endsWith(".workers.dev") && url.origin === new URL(requestUrl).origin;
}

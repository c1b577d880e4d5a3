import type { FetchLike } from "../client/options.ts";
import type { HopProbe, HopRead } from "./hop.ts";

function listed(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The hops as a browser on `origin` would meet them, seen from outside a browser (the CLI): each
 * request carries that `Origin`, and the CORS headers of the answers say what a browser would
 * allow. Answers are read in full here; `headers` keeps only what a page could read.
 */
export function httpHopProbe(fetch: FetchLike, origin: string, timeoutMs = 10_000): HopProbe {
  const allowed = (value: string | null) => value === origin || value === "*";
  return {
    async preflight(url, method, headers) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "OPTIONS",
          headers: {
            Origin: origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": headers.join(", "),
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
        await response.body?.cancel();
      } catch {
        return undefined;
      }
      if (response.status < 200 || response.status > 299) return headers;
      if (!allowed(response.headers.get("Access-Control-Allow-Origin"))) return headers;
      const methods = listed(response.headers.get("Access-Control-Allow-Methods"));
      const names = listed(response.headers.get("Access-Control-Allow-Headers"));
      if (!methods.includes(method.toLowerCase()) && !methods.includes("*")) return headers;
      // A wildcard never covers Authorization: it must be named.
      return headers.filter(
        (name) => !names.includes(name) && !(names.includes("*") && name !== "authorization"),
      );
    },
    async read(url, method, headers, body): Promise<HopRead> {
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method,
          headers: { ...headers, Origin: origin },
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = (await response.text()).slice(0, 64_000);
      } catch {
        return { reached: false, corsAllowed: false };
      }
      const corsAllowed = allowed(response.headers.get("Access-Control-Allow-Origin"));
      const exposed = listed(response.headers.get("Access-Control-Expose-Headers"));
      const readable = new Headers();
      for (const [name, value] of response.headers)
        if (exposed.includes(name) || exposed.includes("*") || name === "content-type")
          readable.set(name, value);
      return {
        reached: true,
        status: response.status,
        corsAllowed,
        headers: readable,
        body: text,
        ...(response.redirected ? { redirectedTo: response.url } : {}),
      };
    },
  };
}

import type { HopProbe, HopRead } from "../../../shared/check/hop.ts";

// A value for each header a preflight is asked about (the value does not matter, the name does).
const SAMPLE: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "server/discover",
  "mcp-name": "probe",
  authorization: "Bearer probe",
};

/** Whether anything answers at all: an opaque no-cors request succeeds for any HTTP answer. */
function reachable(url: string, method: string): Promise<boolean> {
  return fetch(url, { method, mode: "no-cors", ...(method === "POST" ? { body: "{}" } : {}) }).then(
    () => true,
    () => false,
  );
}

/**
 * The hops as this page meets them: a browser shows no preflight, so each header is tried on
 * its own (a request that fails names the header the preflight refuses), and an answer the page
 * cannot read is told from no answer by an opaque request.
 */
export const browserHopProbe: HopProbe = {
  async preflight(url, method, headers) {
    if (!(await reachable(url, method))) return undefined;
    const refused: string[] = [];
    for (const name of headers) {
      const ok = await fetch(url, {
        method,
        headers: { [name]: SAMPLE[name] ?? "probe" },
        ...(method === "POST" ? { body: "{}" } : {}),
      }).then(
        (r) => (void r.body?.cancel(), true),
        () => false,
      );
      if (!ok) refused.push(name);
    }
    return refused;
  },
  async read(url, method, headers, body): Promise<HopRead> {
    try {
      const response = await fetch(url, { method, headers, ...(body ? { body } : {}) });
      const text = (await response.text()).slice(0, 64_000);
      return {
        reached: true,
        status: response.status,
        corsAllowed: true,
        headers: response.headers,
        body: text,
        ...(response.redirected ? { redirectedTo: response.url } : {}),
      };
    } catch {
      return { reached: await reachable(url, method), corsAllowed: false };
    }
  },
};

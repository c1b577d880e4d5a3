/**
 * Every hop a browser client on another origin needs, checked one by one: the MCP endpoint's
 * preflight and answer, a 401's `WWW-Authenticate`, the protected resource metadata, the
 * authorization server's metadata and its `/register` and `/token` endpoints. Each hop says what
 * was seen, the exact fix on the server, and whether this Worker's relay gets around it. The
 * page and `edgemcp check --origin` run the same hops through their own HopProbe.
 */

import { hop, PREFLIGHTED, type Hop, type HopProbe } from "./hop.ts";
import { oauthHops } from "./oauth-hops.ts";

const DISCOVER =
  '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}';

/** Runs every hop for an MCP endpoint as a page on `origin` would meet them. */
export async function checkHops(
  probe: HopProbe,
  url: string,
  origin: string,
  custom: string[] = [],
): Promise<Hop[]> {
  const hops: Hop[] = [];
  const allow = `Access-Control-Allow-Origin: ${origin}`;
  const wanted = [...PREFLIGHTED, ...custom.map((h) => h.toLowerCase())];
  const refused = await probe.preflight(url, "POST", wanted);
  if (refused === undefined) {
    hops.push(
      hop(
        "hop.endpoint",
        "The MCP endpoint answers",
        "fail",
        `no HTTP answer from ${url}`,
        "Check the URL and that the server runs.",
        false,
      ),
    );
    return hops;
  }
  hops.push(
    refused.length === 0
      ? hop(
          "hop.preflight",
          "The endpoint's preflight allows POST and every header the client sends",
          "pass",
          wanted.join(", "),
        )
      : hop(
          "hop.preflight",
          "The endpoint's preflight allows POST and every header the client sends",
          "fail",
          `refused: ${refused.join(", ")}`,
          `Answer OPTIONS with ${allow}, Access-Control-Allow-Methods: POST, GET, DELETE and Access-Control-Allow-Headers: ${refused.join(", ")} (a * never covers Authorization).`,
        ),
  );
  const answer = await probe.read(
    url,
    "POST",
    { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    DISCOVER,
  );
  const originRefused = answer.status === 403 && /origin/i.test(answer.body ?? "");
  if (originRefused)
    hops.push(
      hop(
        "hop.origin-403",
        "The server accepts this page's Origin",
        "fail",
        `403: ${(answer.body ?? "").trim().slice(0, 200)}`,
        `Add ${origin} to the server's allowed origins (this is its Origin check, not CORS).`,
      ),
    );
  else
    hops.push(
      answer.corsAllowed
        ? hop(
            "hop.answer",
            "The endpoint's answer is readable from this origin",
            "pass",
            `HTTP ${answer.status ?? "?"} with ${allow}`,
          )
        : hop(
            "hop.answer",
            "The endpoint's answer is readable from this origin",
            "fail",
            "no Access-Control-Allow-Origin for this origin",
            `Send ${allow} (or *) on every answer, errors included.`,
          ),
    );
  if (answer.redirectedTo !== undefined)
    hops.push(
      hop(
        "hop.redirect",
        "The endpoint answers without a redirect",
        "fail",
        `redirected to ${answer.redirectedTo}`,
        `Connect to ${answer.redirectedTo} itself: a browser drops Authorization on a redirect to another origin, and a preflight cannot be redirected.`,
        false,
      ),
    );
  if (answer.status === 401) {
    const challenge = answer.headers?.get("WWW-Authenticate");
    hops.push(
      challenge
        ? hop("hop.www-authenticate", "A 401 exposes WWW-Authenticate", "pass", challenge)
        : hop(
            "hop.www-authenticate",
            "A 401 exposes WWW-Authenticate",
            "fail",
            "the page cannot read WWW-Authenticate",
            "Add WWW-Authenticate to Access-Control-Expose-Headers, so the client finds where to sign in.",
          ),
    );
  }
  await oauthHops(probe, url, origin, hops);
  return hops;
}

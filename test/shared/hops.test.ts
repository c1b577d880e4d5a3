import { describe, expect, it } from "vitest";
import { httpHopProbe } from "../../shared/check/hop-probe-http.ts";
import type { Hop } from "../../shared/check/hop.ts";
import { checkHops } from "../../shared/check/hops.ts";
import type { FetchLike } from "../../shared/client/index.ts";

const ORIGIN = "http://localhost:8787";
const MCP = "https://mcp.example.com/mcp";

type Route = (request: Request) => Response;

/** A fetch answering from a table of URL → handler, as servers with the given CORS would. */
function site(routes: Record<string, Route>): FetchLike {
  return async (url, init) => {
    const route = routes[url.split("?")[0]!];
    return route ? route(new Request(url, init)) : new Response("not found", { status: 404 });
  };
}

const cors = (extra: Record<string, string> = {}) => ({
  "Access-Control-Allow-Origin": ORIGIN,
  "Access-Control-Allow-Methods": "POST, GET, DELETE",
  "Access-Control-Allow-Headers":
    "Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Authorization",
  ...extra,
});

const byRule = (hops: Hop[]) => Object.fromEntries(hops.map((h) => [h.rule, h]));

describe("the hop checks name each missing piece and whether the relay helps", () => {
  it("passes a server that allows the origin on every hop", async () => {
    const fetch = site({
      [MCP]: (r) =>
        r.method === "OPTIONS"
          ? new Response(null, { status: 204, headers: cors() })
          : Response.json({ jsonrpc: "2.0", id: 1, result: {} }, { headers: cors() }),
    });
    const hops = await checkHops(httpHopProbe(fetch, ORIGIN), MCP, ORIGIN);
    expect(hops.map((h) => [h.rule, h.status])).toEqual([
      ["hop.preflight", "pass"],
      ["hop.answer", "pass"],
      ["hop.resource-metadata", "skip"],
    ]);
  });

  it("names a server without CORS, and the headers its preflight refuses, as relayable", async () => {
    const fetch = site({
      [MCP]: (r) =>
        r.method === "OPTIONS"
          ? new Response(null, {
              status: 204,
              headers: cors({ "Access-Control-Allow-Headers": "Content-Type, *" }),
            })
          : Response.json({}),
    });
    const found = byRule(await checkHops(httpHopProbe(fetch, ORIGIN), MCP, ORIGIN));
    expect(found["hop.preflight"]).toMatchObject({ status: "fail", relayHelps: true });
    expect(found["hop.preflight"]!.seen).toBe("refused: authorization");
    expect(found["hop.preflight"]!.fix).toContain("Access-Control-Allow-Headers: authorization");
    expect(found["hop.answer"]).toMatchObject({ status: "fail", relayHelps: true });
    expect(found["hop.answer"]!.fix).toContain(`Access-Control-Allow-Origin: ${ORIGIN}`);
  });

  it("tells a 403 for the page's Origin apart from CORS", async () => {
    const fetch = site({
      [MCP]: (r) =>
        r.method === "OPTIONS"
          ? new Response(null, { status: 204, headers: cors() })
          : new Response(`Origin ${ORIGIN} is not allowed`, { status: 403 }),
    });
    const found = byRule(await checkHops(httpHopProbe(fetch, ORIGIN), MCP, ORIGIN));
    expect(found["hop.origin-403"]).toMatchObject({ status: "fail", relayHelps: true });
    expect(found["hop.origin-403"]!.fix).toMatch(
      /allowed origins \(this is its Origin check, not CORS\)/,
    );
  });

  it("checks a 401's WWW-Authenticate, the metadata documents and /register and /token", async () => {
    const issuer = "https://auth.example.com";
    const fetch = site({
      [MCP]: (r) =>
        r.method === "OPTIONS"
          ? new Response(null, { status: 204, headers: cors() })
          : new Response("{}", {
              status: 401,
              headers: cors({ "WWW-Authenticate": 'Bearer resource_metadata="x"' }),
            }),
      "https://mcp.example.com/.well-known/oauth-protected-resource/mcp": () =>
        Response.json({ resource: MCP, authorization_servers: [issuer] }, { headers: cors() }),
      [`${issuer}/.well-known/oauth-authorization-server`]: () =>
        Response.json(
          {
            issuer,
            registration_endpoint: `${issuer}/register`,
            token_endpoint: `${issuer}/token`,
          },
          { headers: { "Access-Control-Allow-Origin": "*" } },
        ),
      [`${issuer}/register`]: () => new Response(null, { status: 204, headers: cors() }),
      [`${issuer}/token`]: () => new Response(null, { status: 204 }),
    });
    const found = byRule(await checkHops(httpHopProbe(fetch, ORIGIN), MCP, ORIGIN));
    expect(found["hop.www-authenticate"]).toMatchObject({ status: "fail", relayHelps: true });
    expect(found["hop.www-authenticate"]!.fix).toMatch(/Access-Control-Expose-Headers/);
    expect(found["hop.resource-metadata"]).toMatchObject({ status: "pass" });
    expect(found["hop.auth-server-metadata"]).toMatchObject({ status: "pass" });
    expect(found["hop.register"]).toMatchObject({ status: "pass" });
    expect(found["hop.token"]).toMatchObject({ status: "fail", relayHelps: true });
    expect(found["hop.token"]!.fix).toContain(`${issuer}/token`);
  });

  it("names a redirected endpoint and its final URL, which the relay does not fix", async () => {
    const fetch: FetchLike = async (_url, init) => {
      const response =
        init.method === "OPTIONS"
          ? new Response(null, { status: 204, headers: cors() })
          : Response.json({}, { headers: cors() });
      Object.defineProperty(response, "redirected", { value: true });
      Object.defineProperty(response, "url", { value: "https://mcp.example.com/v2/mcp" });
      return response;
    };
    const found = byRule(await checkHops(httpHopProbe(fetch, ORIGIN), MCP, ORIGIN));
    expect(found["hop.redirect"]).toMatchObject({ status: "fail", relayHelps: false });
    expect(found["hop.redirect"]!.fix).toMatch(
      /^Connect to https:\/\/mcp\.example\.com\/v2\/mcp itself/,
    );
  });

  it("says the relay does not help when nothing answers", async () => {
    const fetch: FetchLike = () => Promise.reject(new TypeError("fetch failed"));
    const hops = await checkHops(httpHopProbe(fetch, ORIGIN), MCP, ORIGIN);
    expect(hops).toEqual([
      expect.objectContaining({ rule: "hop.endpoint", status: "fail", relayHelps: false }),
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { TEST_TOKENS } from "../../support/secrets.ts";
import { callWorker, LOCAL, pageToken, refusal, relay, targets } from "./support.ts";

const echo = () => `${targets()}/echo`;

describe("only this Worker's page may use the relay", () => {
  it("refuses a request without the page token, saying where to get one", async () => {
    const found = await refusal(await relay({ target: echo(), token: null }));
    expect(found).toMatchObject({ status: 403, rule: "page-token" });
    expect(found.message).toMatch(/Relay-Token.*POST \/relay\/token/);
  });

  it("refuses a forged or altered page token", async () => {
    const token = await pageToken();
    for (const bad of ["forged", `${token.slice(0, -2)}AA`]) {
      const found = await refusal(await relay({ target: echo(), token: bad }));
      expect(found).toMatchObject({ status: 403, rule: "page-token" });
    }
  });

  it("refuses another site's origin, even with a valid token", async () => {
    const token = await pageToken();
    const response = await callWorker(
      new Request(`${LOCAL}/relay`, {
        method: "POST",
        headers: { Origin: "https://evil.example", "Relay-Token": token, "Relay-Target": echo() },
      }),
      { RELAY_DEV: "on" },
    );
    const found = await refusal(response);
    expect(found).toMatchObject({ status: 403, rule: "origin" });
    expect(found.message).toMatch(/not https:\/\/evil\.example/);
  });

  it("refuses a request without an Origin", async () => {
    const token = await pageToken();
    const response = await callWorker(
      new Request(`${LOCAL}/relay`, {
        method: "POST",
        headers: { "Relay-Token": token, "Relay-Target": echo() },
      }),
      { RELAY_DEV: "on" },
    );
    expect((await refusal(response)).rule).toBe("origin");
  });

  it("gives no page token to another site, and sends it no CORS headers", async () => {
    const response = await callWorker(
      new Request(`${LOCAL}/relay/token`, {
        method: "POST",
        headers: { Origin: "https://evil.example", Authorization: `Bearer ${TEST_TOKENS.alice}` },
      }),
      { RELAY_DEV: "on" },
    );
    expect((await refusal(response)).rule).toBe("origin");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("does not accept a token minted for another origin of the same Worker", async () => {
    const token = await pageToken("http://127.0.0.1:8787");
    const found = await refusal(await relay({ target: echo(), token }));
    expect(found.rule).toBe("page-token");
  });

  it("answers anything but POST with 405", async () => {
    const response = await callWorker(new Request(`${LOCAL}/relay`), { RELAY_DEV: "on" });
    expect(await refusal(response)).toMatchObject({ status: 405, rule: "method" });
  });
});

describe("when the Worker has credentials configured, the relay requires them", () => {
  it("gives no page token without the Worker's token", async () => {
    const response = await callWorker(
      new Request(`${LOCAL}/relay/token`, { method: "POST", headers: { Origin: LOCAL } }),
      { RELAY_DEV: "on" },
    );
    const found = await refusal(response);
    expect(found).toMatchObject({ status: 401, rule: "authentication" });
    expect(found.message).toMatch(/API_TOKENS/);
  });

  it("gives no page token for a wrong token", async () => {
    const response = await callWorker(
      new Request(`${LOCAL}/relay/token`, {
        method: "POST",
        headers: { Origin: LOCAL, Authorization: "Bearer wrong" },
      }),
      { RELAY_DEV: "on" },
    );
    expect(await refusal(response)).toMatchObject({ status: 401, rule: "authentication" });
  });

  it("refuses a page token minted before credentials were configured", async () => {
    // No static tokens and no sign-in (its KV namespace unbound): no credential at all.
    const open = { RELAY_DEV: "on", API_TOKENS: "", OAUTH_KV: "" };
    const token = await pageToken(LOCAL, open, null);
    const found = await refusal(await relay({ target: echo(), token }));
    expect(found).toMatchObject({ status: 401, rule: "authentication" });
  });

  it("relays without a Worker token when none is configured", async () => {
    // No static tokens and no sign-in (its KV namespace unbound): no credential at all.
    const open = { RELAY_DEV: "on", API_TOKENS: "", OAUTH_KV: "" };
    const token = await pageToken(LOCAL, open, null);
    const response = await relay({ target: echo(), token, vars: open });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});

describe("the relay forwards only the page's headers for the target", () => {
  it("forwards the MCP headers and declared custom ones, never cookies, CF-* or X-Forwarded-*", async () => {
    const response = await relay({
      target: echo(),
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      headers: {
        Authorization: "Bearer target-token",
        Accept: "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "ping",
        "Mcp-Session-Id": "abc",
        "Mcp-Param-Region": "eu",
        "Last-Event-ID": "7",
        "X-Api-Key": "k",
        "X-Undeclared": "u",
        "Relay-Headers": "X-Api-Key",
        Cookie: "session=worker-session",
        "CF-Connecting-IP": "203.0.113.9",
        "X-Forwarded-For": "203.0.113.9",
        Referer: `${LOCAL}/`,
      },
    });
    expect(response.status).toBe(200);
    const seen: { method: string; headers: Record<string, string>; body: string } =
      await response.json();
    expect(seen.method).toBe("POST");
    expect(seen.body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen.headers).toMatchObject({
      authorization: "Bearer target-token",
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "ping",
      "mcp-session-id": "abc",
      "mcp-param-region": "eu",
      "last-event-id": "7",
      "x-api-key": "k",
    });
    const names = Object.keys(seen.headers);
    for (const never of [
      "cookie",
      "cf-connecting-ip",
      "x-forwarded-for",
      "referer",
      "origin",
      "x-undeclared",
    ])
      expect(names).not.toContain(never);
    expect(names.filter((name) => name.startsWith("relay-"))).toEqual([]);
  });

  it("passes back the headers a client reads, and neither cookies nor anything else", async () => {
    const response = await relay({ target: echo(), body: "{}" });
    expect(response.headers.get("Mcp-Session-Id")).toBe("session-1");
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(response.headers.get("X-Internal-Detail")).toBeNull();
    await response.body?.cancel();
  });

  it.each([
    ["Cookie", "cookie"],
    ["Host", "host"],
    ["CF-Connecting-IP", "cf-connecting-ip"],
    ["X-Forwarded-Host", "x-forwarded-host"],
    ["Proxy-Authorization", "proxy-authorization"],
    ["Sec-Fetch-Site", "sec-fetch-site"],
  ])("refuses to forward %s when the page names it, naming it", async (name, lower) => {
    const found = await refusal(
      await relay({ target: echo(), headers: { "Relay-Headers": name, [name]: "x" } }),
    );
    expect(found).toMatchObject({ status: 400, rule: "header" });
    expect(found.message).toContain(lower);
  });

  it("refuses header names that are not field names (header injection)", async () => {
    for (const names of ["X-A:B", "X-A\tB", "X-A B", "X-(A)"]) {
      const found = await refusal(
        await relay({ target: echo(), headers: { "Relay-Headers": names } }),
      );
      expect(found, names).toMatchObject({ status: 400, rule: "header" });
    }
  });

  it("cannot be made to send a header through the target URL", async () => {
    const response = await relay({
      target: `${echo()}?x=1%0d%0aX-Injected:%201`,
      body: "{}",
    });
    const seen: { headers: Record<string, string> } = await response.json();
    expect(Object.keys(seen.headers)).not.toContain("x-injected");
  });

  it("refuses a method other than GET, POST, DELETE and OPTIONS", async () => {
    const found = await refusal(await relay({ target: echo(), method: "PUT" }));
    expect(found).toMatchObject({ status: 400, rule: "method" });
  });
});

import { describe, expect, it } from "vitest";
import type { FetchLike } from "../../shared/client/index.ts";
import { pageTokens, relayFetch, RelayRefused } from "../../shared/relay.ts";

type Sent = { url: string; headers: Headers; body: unknown };

/** A relay answering from `answer(target)`, recording what the page sent it. */
function fakeRelay(answer: (target: string, headers: Headers) => Response) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    const headers = new Headers(init.headers);
    sent.push({ url, headers, body: init.body });
    return answer(headers.get("Relay-Target") ?? "", headers);
  };
  return { sent, fetch };
}

const refusal = (status: number, rule: string, message: string) =>
  Response.json({ error: { rule, message } }, { status, headers: { "Relay-Error": rule } });

describe("relayFetch sends a request through the Worker's relay", () => {
  it("names the target, the method and the custom headers, and carries the MCP ones as they are", async () => {
    const relay = fakeRelay(() => Response.json({ ok: true }));
    const send = relayFetch({ relayUrl: "/relay", token: async () => "t1", fetch: relay.fetch });
    const response = await send("https://mcp.example.com/mcp", {
      method: "POST",
      headers: { Authorization: "Bearer x", "Mcp-Method": "ping", "X-Api-Key": "k" },
      body: "{}",
    });
    expect(await response.json()).toEqual({ ok: true });
    const [only] = relay.sent;
    expect(only!.url).toBe("/relay");
    expect(Object.fromEntries(only!.headers)).toMatchObject({
      "relay-target": "https://mcp.example.com/mcp",
      "relay-method": "POST",
      "relay-token": "t1",
      "relay-headers": "x-api-key",
      authorization: "Bearer x",
      "mcp-method": "ping",
    });
    expect(only!.body).toBe("{}");
  });

  it("follows a redirect through the relay, where the relay checks the new target", async () => {
    const relay = fakeRelay((target) =>
      target.endsWith("/old")
        ? new Response(null, {
            status: 302,
            headers: { "Relay-Location": "http://169.254.169.254/" },
          })
        : refusal(403, "internal-address", "The relay never reaches internal addresses."),
    );
    const send = relayFetch({ relayUrl: "/relay", token: async () => "t", fetch: relay.fetch });
    const failure = await send("https://a.example/old", { method: "POST", body: "{}" }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RelayRefused);
    expect(failure).toMatchObject({ rule: "internal-address", status: 403 });
    expect(relay.sent.map((s) => s.headers.get("Relay-Method"))).toEqual(["POST", "GET"]);
  });

  it("keeps Authorization on a redirect within the origin and drops it to another, as a browser does", async () => {
    const relay = fakeRelay((target) =>
      target.endsWith("/a")
        ? new Response(null, { status: 307, headers: { "Relay-Location": "https://a.example/b" } })
        : target.endsWith("/b")
          ? new Response(null, { status: 307, headers: { "Relay-Location": "https://c.example/" } })
          : Response.json({}),
    );
    const send = relayFetch({ relayUrl: "/relay", token: async () => "t", fetch: relay.fetch });
    await send("https://a.example/a", { method: "POST", headers: { Authorization: "Bearer s" } });
    expect(relay.sent.map((s) => s.headers.get("Authorization"))).toEqual([
      "Bearer s",
      "Bearer s",
      null,
    ]);
  });

  it("hands a redirect back with its Location when asked not to follow", async () => {
    const relay = fakeRelay(
      () =>
        new Response(null, { status: 307, headers: { "Relay-Location": "https://b.example/" } }),
    );
    const send = relayFetch({ relayUrl: "/relay", token: async () => "t", fetch: relay.fetch });
    const response = await send("https://a.example/", { method: "GET", redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("Location")).toBe("https://b.example/");
  });

  it("asks for a fresh page token once when the relay refuses the one it has", async () => {
    let calls = 0;
    const relay = fakeRelay((_target, headers) =>
      headers.get("Relay-Token") === "new"
        ? Response.json({})
        : refusal(403, "page-token", "stale"),
    );
    const send = relayFetch({
      relayUrl: "/relay",
      token: async (fresh) => (calls++, fresh ? "new" : "old"),
      fetch: relay.fetch,
    });
    expect((await send("https://a.example/", { method: "GET" })).status).toBe(200);
    expect(calls).toBe(2);
  });

  it("gets the page token once, with the Worker's credential, and says why when refused", async () => {
    const asked: Headers[] = [];
    const tokens = pageTokens(
      "/relay/token",
      () => "Bearer w",
      async (_url, init) => {
        asked.push(new Headers(init.headers));
        return asked.length === 1
          ? Response.json({ token: "p" })
          : refusal(401, "authentication", "This Worker requires its credentials.");
      },
    );
    expect(await tokens(false)).toBe("p");
    expect(await tokens(false)).toBe("p");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.get("Authorization")).toBe("Bearer w");
    await expect(tokens(true)).rejects.toThrow(/requires its credentials/);
  });
});

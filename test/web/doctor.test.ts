import { describe, expect, it } from "vitest";
import { McpError } from "../../shared/client/errors.ts";
import { RelayRefused } from "../../shared/relay.ts";
import { diagnose, relayOutcome, type Facts } from "../../web/src/lib/doctor.ts";

const base: Facts = {
  url: "http://localhost:8787/mcp/nope",
  pageOrigin: "http://localhost:8787",
  online: true,
  error: { kind: "http", message: "HTTP 404", status: 404 },
  endpoints: ["/mcp", "/mcp/notes"],
};

describe("the connection doctor", () => {
  it("answers a 404 on this Worker with its mounted endpoints", () => {
    const d = diagnose({
      ...base,
      response: { status: 404, contentType: "text/plain", bodyText: "No MCP server at /mcp/nope." },
    });
    expect(d.kind).toBe("not-found");
    expect(d.suggestions).toEqual(["http://localhost:8787/mcp", "http://localhost:8787/mcp/notes"]);
  });

  it("names the HTTP+SSE transport when a GET found its endpoint event, and guesses no path", () => {
    const d = diagnose({
      ...base,
      url: "http://127.0.0.1:3001/sse",
      response: { status: 404, contentType: "text/html", bodyText: "Cannot POST /sse" },
      sseEndpoint: "http://127.0.0.1:3001/message?sessionId=1",
    });
    expect(d.kind).toBe("legacy-sse");
    expect(d.detail).toContain("names http://127.0.0.1:3001/message?sessionId=1");
    expect(d.actions.join(" ")).toContain("Streamable HTTP only");
    expect(d.suggestions).toEqual([]);
  });

  it("offers the usual path of another origin as a guess, not as an endpoint that answers", () => {
    const d = diagnose({
      ...base,
      url: "http://127.0.0.1:3001/nope",
      response: { status: 404, contentType: "text/html", bodyText: "Cannot POST /nope" },
    });
    expect(d.suggestions).toEqual(["http://127.0.0.1:3001/mcp"]);
    expect(d.guessed).toBe(true);
    expect(diagnose({ ...base, response: { status: 404, contentType: "" } }).guessed).toBe(
      undefined,
    );
  });

  it("does not blame a server for failing on credentials entered for another one", () => {
    const failed = {
      ...base,
      url: "https://other.example/mcp",
      error: { kind: "http", message: "HTTP 500", status: 500 },
      response: { status: 500, contentType: "text/plain", bodyText: "Internal Server Error" },
    };
    const plain = diagnose(failed);
    expect(plain.title).toBe("The server failed (500)");
    const carried = diagnose({ ...failed, carriedFrom: "http://localhost:8787" });
    expect(carried.title).toBe("The server failed (500) on credentials meant for another server");
    expect(carried.detail).toContain("you entered for http://localhost:8787");
    expect(carried.actions[0]).toMatch(/^Open Headers, remove the credentials/);
    expect(carried.actions.join(" ")).not.toContain("server's logs");
  });

  it("shows WWW-Authenticate for a 401", () => {
    const d = diagnose({
      ...base,
      error: { kind: "http", message: "401", status: 401 },
      response: {
        status: 401,
        contentType: "application/json",
        wwwAuthenticate: 'Bearer realm="mcp"',
      },
    });
    expect(d.kind).toBe("auth");
    expect(d.wwwAuthenticate).toBe('Bearer realm="mcp"');
  });

  it("tells a refused origin from refused credentials", () => {
    const d = diagnose({
      ...base,
      error: { kind: "http", message: "403", status: 403 },
      response: {
        status: 403,
        contentType: "text/plain",
        bodyText: "Origin http://x is not allowed",
      },
    });
    expect(d.kind).toBe("forbidden-origin");
  });

  it("names the header a CORS preflight refuses", () => {
    const d = diagnose({
      ...base,
      url: "http://127.0.0.1:9/mcp",
      error: { kind: "network", message: "Failed to fetch" },
      cors: { reachable: true, allowsOrigin: true, refusedHeaders: ["Mcp-Method", "Mcp-Name"] },
    });
    expect(d.kind).toBe("cors");
    expect(d.title).toContain("Mcp-Method, Mcp-Name");
  });

  it("says so when a reachable server sends no Access-Control-Allow-Origin", () => {
    const d = diagnose({
      ...base,
      url: "http://127.0.0.1:9/mcp",
      error: { kind: "network", message: "Failed to fetch" },
      cors: { reachable: true, allowsOrigin: false, refusedHeaders: [] },
    });
    expect(d.detail).toContain("Access-Control-Allow-Origin");
  });

  it("points someone who does not own a server behind CORS to the command in a terminal", () => {
    for (const cors of [
      { reachable: true, allowsOrigin: false, refusedHeaders: [] },
      { reachable: true, allowsOrigin: true, refusedHeaders: ["Mcp-Method"] },
    ]) {
      const d = diagnose({
        ...base,
        url: "http://127.0.0.1:9/mcp",
        error: { kind: "network", message: "Failed to fetch" },
        cors,
      });
      expect(d.actions.at(-1)).toBe(
        "Not your server? A terminal knows no CORS: npx edgemcp list http://127.0.0.1:9/mcp (then npx edgemcp call http://127.0.0.1:9/mcp <tool> --args '{...}') reaches it from your machine.",
      );
    }
  });

  it("tells offline, unreachable, legacy-only and non-MCP answers apart", () => {
    const network = { ...base, error: { kind: "network", message: "Failed to fetch" } };
    expect(diagnose({ ...network, online: false }).kind).toBe("offline");
    expect(diagnose(network).kind).toBe("unreachable");
    expect(diagnose({ ...base, legacyOnly: true }).kind).toBe("legacy-only");
    expect(
      diagnose({
        ...base,
        error: { kind: "protocol", message: "type text/html" },
        response: { status: 200, contentType: "text/html" },
      }).kind,
    ).toBe("not-mcp");
  });
});

describe("the doctor and the relay", () => {
  const cors: Facts = {
    ...base,
    url: "http://127.0.0.1:3000/mcp",
    error: { kind: "network", message: "Failed to fetch" },
    cors: { reachable: true, allowsOrigin: false, refusedHeaders: [] },
    hops: [
      {
        rule: "hop.answer",
        title: "The endpoint's answer is readable from this origin",
        status: "fail",
        seen: "no Access-Control-Allow-Origin for this origin",
        fix: "Send Access-Control-Allow-Origin: http://localhost:8787 (or *) on every answer, errors included.",
        relayHelps: true,
      },
    ],
  };

  it("offers the relay for a server without CORS, and lists each hop with its fix", () => {
    const d = diagnose({ ...cors, route: "direct" });
    expect(d.kind).toBe("cors");
    expect(d.offerRelay).toBe(true);
    expect(d.hops?.map((h) => h.rule)).toEqual(["hop.answer"]);
    expect(d.actions.at(-2)).toMatch(/connect through this Worker's relay/);
  });

  it("says why the relay could not connect either, and offers it no more", () => {
    const d = diagnose({ ...cors, route: "auto", relayRefusal: "127.0.0.1 is not in RELAY_HOSTS" });
    expect(d.offerRelay).toBeUndefined();
    expect(d.actions.at(-2)).toBe(
      "This Worker's relay could not connect either: 127.0.0.1 is not in RELAY_HOSTS",
    );
  });

  it("tells the server's refusal through the relay apart from the relay not connecting", () => {
    const unauthorized = new McpError("The server refused server/discover with HTTP 401.", {
      kind: "http",
      status: 401,
    });
    const answered = relayOutcome(unauthorized);
    expect(answered).toEqual({
      relayAnswer:
        "The server refused server/discover with HTTP 401. It asks who you are: sign in, or add a token.",
    });
    const d = diagnose({ ...cors, route: "auto", ...answered });
    expect(d.offerRelay).toBeUndefined();
    expect(d.actions.at(-2)).toBe(
      `This Worker's relay reached the server: ${answered.relayAnswer}`,
    );
    expect(d.actions.join(" ")).not.toMatch(/could not connect/);

    const failing = new McpError("HTTP 500", { kind: "http", status: 500 });
    expect(relayOutcome(failing)).toEqual({ relayAnswer: "HTTP 500" });
    const refused = new RelayRefused(403, "host-not-listed", "127.0.0.1 is not in RELAY_HOSTS");
    expect(relayOutcome(refused)).toEqual({ relayRefusal: "127.0.0.1 is not in RELAY_HOSTS" });
    const wrapped = new McpError("fetch failed", { kind: "network", cause: refused });
    expect(relayOutcome(wrapped)).toEqual({ relayRefusal: "127.0.0.1 is not in RELAY_HOSTS" });
    // The relay's refusal reaches the page as an HTTP error of the client: still the relay's.
    const relayStatus = new McpError("HTTP 403", { kind: "http", status: 403, cause: refused });
    expect(relayOutcome(relayStatus)).toEqual({ relayRefusal: "127.0.0.1 is not in RELAY_HOSTS" });
    const unreachable = new McpError("fetch failed", { kind: "network" });
    expect(relayOutcome(unreachable)).toEqual({ relayRefusal: "fetch failed" });
  });

  it("does not offer the relay for what it cannot help with (a 404)", () => {
    const d = diagnose({
      ...base,
      response: { status: 404, contentType: "text/plain", bodyText: "nothing" },
    });
    expect(d.offerRelay).toBeUndefined();
  });
});

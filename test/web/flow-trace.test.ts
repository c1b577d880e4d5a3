import { describe, expect, it } from "vitest";
import {
  maskBody,
  maskUrl,
  traceJson,
  traceText,
  type FlowTrace,
} from "../../web/src/lib/flow-trace.ts";

const trace: FlowTrace = {
  server: "https://mcp.example/mcp",
  startedAt: Date.UTC(2026, 0, 1),
  steps: [
    {
      name: "callback",
      status: "ok",
      summary: "The callback carried the state sent.",
      rule: "RFC 9207",
      url: "https://page.example/sign-in/callback?code=the-code&state=s1&iss=https%3A%2F%2Fauth.example",
      exchanges: [],
    },
    {
      name: "token",
      status: "ok",
      summary: "Signed in.",
      rule: "OAuth 2.1 §4.1.3",
      exchanges: [
        {
          method: "POST",
          url: "https://auth.example/token",
          via: "relay",
          requestHeaders: [
            ["content-type", "application/x-www-form-urlencoded"],
            ["authorization", "Basic Y2xpZW50OnNlY3JldA=="],
          ],
          requestBody:
            "grant_type=authorization_code&code=the-code&code_verifier=the-verifier&client_id=c1",
          status: 200,
          responseHeaders: [["content-type", "application/json"]],
          responseBody: JSON.stringify({
            access_token: "at-secret",
            refresh_token: "rt-secret",
            token_type: "Bearer",
            scope: "mcp",
          }),
        },
      ],
    },
    {
      name: "server-metadata",
      status: "failed",
      summary:
        "The metadata's issuer is `https://auth.example/` but it was fetched for `https://auth.example`.",
      rule: "RFC 8414 §3.3",
      fix: "The server's owner must make them the same string.",
      exchanges: [],
    },
  ],
};

const SECRETS = ["the-code", "the-verifier", "at-secret", "rt-secret", "Y2xpZW50OnNlY3JldA=="];

describe("the sign-in trace as shown and copied", () => {
  it("masks codes, verifiers, tokens and credential headers in text and JSON unless secrets are shown", () => {
    for (const copy of [traceText(trace), traceJson(trace)])
      for (const secret of SECRETS) expect(copy).not.toContain(secret);
    const text = traceText(trace);
    expect(text).toContain("code_verifier=••••••");
    expect(text).toContain("client_id=c1");
    expect(text).toContain('"access_token": "••••••"');
    expect(text).toContain('"scope": "mcp"');
    expect(text).toContain("authorization: Basic ••••••");
    expect(text).toContain("state=s1");
  });

  it("keeps every value when the person asks to see secrets", () => {
    for (const copy of [traceText(trace, true), traceJson(trace, true)])
      for (const secret of SECRETS) expect(copy).toContain(secret);
  });

  it("numbers the steps in order with their rule, the fix and each request's route", () => {
    const text = traceText(trace);
    expect(text).toContain("1. Callback: ok");
    expect(text).toContain("2. Token request: ok");
    expect(text).toContain("> POST https://auth.example/token (through the relay)");
    expect(text).toContain("3. Authorization server metadata: failed");
    expect(text).toContain("Rule: RFC 8414 §3.3");
    expect(text).toContain("To fix: The server's owner must make them the same string.");
    const json = JSON.parse(traceJson(trace)) as FlowTrace;
    expect(json.steps.map((s) => s.name)).toEqual(["callback", "token", "server-metadata"]);
  });

  it("leaves bodies and URLs without credentials as they are", () => {
    expect(maskBody("not json, not a form")).toBe("not json, not a form");
    expect(maskUrl("https://auth.example/authorize?client_id=c1&scope=mcp")).toBe(
      "https://auth.example/authorize?client_id=c1&scope=mcp",
    );
    expect(maskBody("")).toBe("");
  });
});

import { describe, expect, it } from "vitest";
import { decide } from "../../../worker/auth/admit.ts";
import { accessPolicy, compilePolicy, glob, parsePolicy } from "../../../worker/auth/policy.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { bareNamesOf, hubNamesOf } from "../../../worker/hub/policy-names.ts";
import {
  bearerTokens,
  defineServer,
  prompt,
  tool,
  type McpAppOptions,
} from "../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { alpha, inProcess } from "../hub/support.ts";

const authenticate = bearerTokens({ variable: "API_TOKENS" });
const BOB = { Authorization: "Bearer token-bob" };
const ALICE = { Authorization: "Bearer token-alice" };

describe("policy rules", () => {
  it("means the same tool bare on its server and prefixed on the hub", () => {
    const written = [
      {
        who: "*",
        methods: ["tools/call"],
        names: ["delete_note", "ops__deploy_*"],
        effect: "deny" as const,
      },
    ];
    const on = (aliases: (name: string) => readonly string[]) => (name: string) =>
      decide(
        { credentialsConfigured: false, anonymous: "all", rules: compilePolicy(written, aliases) },
        undefined,
        { method: "tools/call", name },
        () => false,
      );
    const hub = on(bareNamesOf());
    const ops = on(hubNamesOf("ops"));
    const notes = on(hubNamesOf("notes"));
    expect(hub("notes__delete_note")).toBe("forbidden");
    expect(hub("ops__deploy_release")).toBe("forbidden");
    expect(ops("deploy_release")).toBe("forbidden");
    expect(notes("delete_note")).toBe("forbidden");
    expect(notes("deploy_release")).toBe("allow");
    expect(hub("notes__search_notes")).toBe("allow");
  });

  it("matches globs on whole names, with regex characters taken literally", () => {
    expect(glob("tools/*")("tools/call")).toBe(true);
    expect(glob("*")("notes://a/b")).toBe(true);
    expect(glob("delete_?")("delete_x")).toBe(true);
    expect(glob("delete_?")("delete_xy")).toBe(false);
    expect(glob("notes.read")("notesXread")).toBe(false);
    expect(glob("a+b")("aab")).toBe(false);
    expect(glob("(x)|y")("y")).toBe(false);
  });

  it("lets the first matching rule decide, and allows when none matches", () => {
    const access = {
      credentialsConfigured: true,
      anonymous: "all" as const,
      rules: compilePolicy([
        { who: "role:admin" },
        { who: ["scope:notes.write"], methods: ["tools/call"], names: ["notes__*"] },
        { who: "*", methods: ["tools/call"], names: ["notes__*"], effect: "deny" },
        { who: "subject:b*", methods: ["prompts/*"], effect: "deny" },
      ]),
    };
    const target = { method: "tools/call", name: "notes__delete_note" };
    const never = () => false;
    expect(decide(access, { subject: "x", roles: ["admin"] }, target, never)).toBe("allow");
    expect(decide(access, { subject: "x", scopes: ["notes.write"] }, target, never)).toBe("allow");
    expect(decide(access, { subject: "x", scopes: ["notes.read"] }, target, never)).toBe(
      "forbidden",
    );
    // A credential could help an anonymous caller: 401, not 403.
    expect(decide(access, undefined, target, never)).toBe("unauthenticated");
    expect(decide(access, { subject: "bob" }, { method: "prompts/get", name: "p" }, never)).toBe(
      "forbidden",
    );
    expect(decide(access, { subject: "alice" }, { method: "prompts/get" }, never)).toBe("allow");
    // A rule with names applies only to requests that name something.
    expect(decide(access, { subject: "x" }, { method: "tools/call" }, never)).toBe("allow");
  });

  it("refuses a rule it cannot read, naming the mistake", () => {
    expect(() => compilePolicy([{ who: "group:x" }])).toThrow(/"who" must be/);
    expect(() => parsePolicy("{", "MCP_POLICY")).toThrow(/MCP_POLICY must be a JSON array/);
    expect(() => parsePolicy('[{"effect":"deny"}]', "MCP_POLICY")).toThrow(/MCP_POLICY must be/);
    expect(parsePolicy(" ", "MCP_POLICY").length).toBe(0);
  });
});

describe("policy at an endpoint", () => {
  const definition = defineServer({
    name: "ruled",
    version: "1",
    tools: [
      tool({ name: "admin_reset", run: () => "reset" }),
      tool({ name: "echo", run: () => "echo" }),
    ],
    prompts: [prompt({ name: "secret", get: () => "hush" })],
  });
  const options: McpAppOptions = {
    authenticate,
    policy: accessPolicy({
      rules: [
        { who: "role:admin" },
        { who: "*", names: ["admin_*"], effect: "deny" },
        { who: "subject:bob", methods: ["prompts/*"], effect: "deny" },
      ],
    }),
  };
  const server = serve(definition, options, {
    API_TOKENS: "token-alice=alice,token-bob=bob,token-root=root:admin+ops",
  });
  const callTool = (name: string, headers: Record<string, string>) =>
    server.send(
      mcpRequest("tools/call", { name, arguments: {} }, { server: "ruled", headers, id: "c1" }),
      "tools/call",
    );

  it("answers a denied call 403 with a JSON-RPC error (decided before the body: id null)", async () => {
    const reply = await callTool("admin_reset", ALICE);
    expect(reply.status).toBe(403);
    expect(reply.headers.get("WWW-Authenticate")).toBe(
      'Bearer error="insufficient_scope", resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
    );
    expect(reply.final?.id).toBeNull();
    expect(reply.final).toMatchObject({
      error: {
        code: -32600,
        message: 'Forbidden: this caller may not use tools/call "admin_reset" on this server.',
      },
    });
    expect((await callTool("echo", ALICE)).status).toBe(200);
  });

  it("allows a role the policy names (roles come with the token)", async () => {
    const reply = await callTool("admin_reset", { Authorization: "Bearer token-root" });
    expect(reply.status).toBe(200);
    expect(reply.final?.result.content[0].text).toBe("reset");
  });

  it("shows each caller only the tools it may call", async () => {
    const list = async (headers: Record<string, string>) => {
      const reply = await server.send(
        mcpRequest("tools/list", {}, { server: "ruled", headers }),
        "tools/list",
      );
      return reply.final?.result;
    };
    const bob = await list(BOB);
    expect(bob.tools.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    expect(bob.cacheScope).toBe("private");
    const root = await list({ Authorization: "Bearer token-root" });
    expect(root.tools.map((t: { name: string }) => t.name)).toEqual(["admin_reset", "echo"]);
  });

  it("decides on methods too (a prompt for bob)", async () => {
    const get = (headers: Record<string, string>) =>
      server.send(
        mcpRequest("prompts/get", { name: "secret" }, { server: "ruled", headers }),
        "prompts/get",
      );
    expect((await get(BOB)).status).toBe(403);
    expect((await get(ALICE)).status).toBe(200);
  });

  it("refuses on the routing headers without reading the body", async () => {
    const request = new Request("http://localhost/mcp/ruled", {
      method: "POST",
      headers: {
        ...BOB,
        "Content-Type": "application/json",
        Accept: "application/json",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "admin_reset",
      },
      body: "not JSON at all",
    });
    const response = await server.fetch(request);
    expect(response.status).toBe(403);
    expect(request.bodyUsed).toBe(false);
  });

  it("is not fooled by a 2025 request whose headers name something else", async () => {
    const request = legacyRequest(
      "tools/call",
      { name: "admin_reset", arguments: {} },
      { server: "ruled" },
    );
    const forged = new Request(request, {
      headers: {
        ...Object.fromEntries(request.headers),
        ...BOB,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "echo",
      },
    });
    const reply = await server.send(forged, "tools/call", "2025");
    expect(reply.status).toBe(403);
    // Decided on the body, so the error answers the request's id.
    expect(reply.final).toMatchObject({ id: expect.anything(), error: { code: -32600 } });
  });

  it("answers a policy it cannot read with 500, saying which variable is wrong", async () => {
    const broken = serve(
      definition,
      { authenticate, policy: accessPolicy() },
      { MCP_POLICY: "[{" },
    );
    const response = await broken.fetch(mcpRequest("tools/list", {}, { server: "ruled" }));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Server misconfigured: MCP_POLICY must be/) },
    });
  });

  it("applies the rules of MCP_POLICY through accessPolicy() without rules", async () => {
    const ruled = serve(
      definition,
      { authenticate, policy: accessPolicy() },
      {
        API_TOKENS: "token-alice=alice",
        MCP_POLICY: '[{"who":"*","names":["admin_*"],"effect":"deny"}]',
      },
    );
    const call = (name: string) =>
      ruled.fetch(
        mcpRequest("tools/call", { name, arguments: {} }, { server: "ruled", headers: ALICE }),
      );
    expect((await call("admin_reset")).status).toBe(403);
    expect((await call("echo")).status).toBe(200);
  });

  it("refuses to serve with MCP_POLICY set and no policy engine linked: 500 naming the import", async () => {
    const unlinked = serve(
      definition,
      { authenticate },
      { API_TOKENS: "token-alice=alice", MCP_POLICY: '[{"who":"*","effect":"deny"}]' },
    );
    const response = await unlinked.fetch(
      mcpRequest(
        "tools/call",
        { name: "echo", arguments: {} },
        { server: "ruled", headers: ALICE },
      ),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^Server misconfigured: MCP_POLICY is set/);
    expect(body.error.message).toContain('import { accessPolicy } from "edgemcp/server"');
  });

  it("serves without a policy engine when MCP_POLICY is empty, anonymous access still closed", async () => {
    const open = serve(
      definition,
      { authenticate },
      { API_TOKENS: "token-alice=alice", MCP_POLICY: " " },
    );
    const list = (headers: Record<string, string>) =>
      open.fetch(mcpRequest("tools/list", {}, { server: "ruled", headers }));
    expect((await list(ALICE)).status).toBe(200);
    // Without a policy, an authenticated server still refuses anonymous callers (fail closed).
    expect((await list({})).status).toBe(401);
  });

  it("refuses a policy option that is no engine (a bare array of rules), naming accessPolicy", async () => {
    const bare = serve(definition, {
      authenticate,
      policy: [{ who: "*" }] as unknown as McpAppOptions["policy"],
    });
    const response = await bare.fetch(mcpRequest("tools/list", {}, { server: "ruled" }));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining("policy: accessPolicy({ rules })") },
    });
  });
});

describe("policy at a hub, on prefixed names", () => {
  const hub = serve(
    hubServer({
      name: "ruled-hub",
      upstreams: () => [inProcess("alpha", alpha, { authenticate, anonymous: "all" })],
    }),
    {
      authenticate,
      policy: accessPolicy({
        rules: [{ who: "subject:bob", names: ["alpha__co*", "alpha__ask"], effect: "deny" }],
      }),
    },
  );
  const send = (method: string, params: Record<string, unknown>, headers: Record<string, string>) =>
    hub.send(mcpRequest(method, params, { headers }), method);

  it("refuses bob's alpha__count with 403 and runs alice's", async () => {
    const args = { name: "alpha__count", arguments: { to: 1 } };
    expect((await send("tools/call", args, BOB)).status).toBe(403);
    const alice = await send("tools/call", args, ALICE);
    expect(alice.status).toBe(200);
    expect(alice.final?.result.content[0].text).toBe("counted 1");
  });

  it("lists for bob only what he may call", async () => {
    const names = (await send("tools/list", {}, BOB)).final?.result.tools.map(
      (t: { name: string }) => t.name,
    );
    expect(names).toContain("alpha__add");
    expect(names).not.toContain("alpha__count");
    expect(names).not.toContain("alpha__ask");
  });
});

describe("a malformed policy variable", () => {
  it("says what is wrong in English even where zod has no locale set", async () => {
    const z = await import("zod/mini");
    const saved = { ...z.config() };
    try {
      z.config({ localeError: undefined, customError: undefined });
      expect(() =>
        parsePolicy(JSON.stringify([{ who: "*", effect: "maybe" }]), "MCP_POLICY"),
      ).toThrow(
        'MCP_POLICY must be a JSON array of {who, methods?, names?, effect?}: at 0.effect: Invalid option: expected one of "allow"|"deny".',
      );
    } finally {
      z.config(saved);
    }
  });
});

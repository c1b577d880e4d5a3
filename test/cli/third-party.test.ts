import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckReport } from "../../shared/check/report.ts";
import { startThirdParty, type ThirdPartyServer } from "../support/third-party/servers.ts";
import { runCli } from "./cli.ts";

/** The checks a 2025-only server warns about by its own design, with the reason. */
function warnings(report: CheckReport) {
  return report.checks.filter((c) => c.status === "warn").map((c) => c.id);
}

describe("edgemcp against @modelcontextprotocol/server-everything (Streamable HTTP)", () => {
  let server: ThirdPartyServer;
  beforeAll(async () => {
    server = await startThirdParty("everything");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists its catalog over its SSE replies, priming events and all", async () => {
    const { code, stdout, stderr } = await runCli(["list", server.url]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Everything Reference Server \S+ · MCP 2025-11-25 · /m);
    expect(stdout).toMatch(/^Tools \(\d+\)$/m);
    expect(stdout).toMatch(/^ {2}echo +Echoes back the input string$/m);
    expect(stdout).toMatch(/^Prompts \(\d+\)$/m);
    expect(stdout).toMatch(/^Resource templates \(\d+\)$/m);
  });

  it("lists its tools as JSON, each with a name and an input schema", async () => {
    const { code, stdout } = await runCli(["list", server.url, "tools", "--json"]);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as { tools: { name: string; inputSchema: object }[] };
    const names = listed.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
    );
    for (const tool of listed.tools) expect(tool.inputSchema).toMatchObject({ type: "object" });
  });

  it("calls echo", async () => {
    const { code, stdout } = await runCli([
      "call",
      server.url,
      "echo",
      "--args",
      '{"message":"hi there"}',
    ]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("Echo: hi there");
  });

  it("calls a tool with structured content and prints it as JSON with --json", async () => {
    const { code, stdout } = await runCli([
      "call",
      server.url,
      "get-sum",
      "--args",
      '{"a":2,"b":3}',
      "--json",
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      content: [{ type: "text", text: expect.stringContaining("5") }],
    });
  });

  it("reports each progress step on stderr, then the result", async () => {
    const args = '{"duration":1,"steps":3}';
    const { code, stdout, stderr } = await runCli([
      "call",
      server.url,
      "trigger-long-running-operation",
      "--args",
      args,
    ]);
    expect(code).toBe(0);
    expect(stderr.trim().split("\n")).toEqual(["progress 1/3", "progress 2/3", "progress 3/3"]);
    expect(stdout.trim()).toBe("Long running operation completed. Duration: 1 seconds, Steps: 3.");
  });

  it("exits 1 with the server's words for a tool it does not have", async () => {
    const { code, stderr, stdout } = await runCli(["call", server.url, "no-such-tool"]);
    expect(code).toBe(1);
    expect(stdout + stderr).toMatch(/no-such-tool/);
  });

  it("says a tool it lists only for clients that can answer sampling needs --answer, which then works", async () => {
    const args = ["call", server.url, "trigger-sampling-request", "--args", '{"prompt":"Hi?"}'];
    const bare = await runCli(args);
    expect(bare.code).toBe(1);
    expect(bare.stderr.trim().split("\n").at(-1)).toBe(
      `The server lists no tool "trigger-sampling-request": see edgemcp list ${server.url} tools. Some servers list a tool only for clients that can answer sampling or roots, which edgemcp declares when --answer gives them: --answer '{"sampling":"the reply","roots":["file:///path"]}'.`,
    );
    const answered = await runCli([...args, "--answer", '{"sampling":"the reply"}']);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain('"text": "the reply"');
  });

  it("checks it with no failure, and only the warning a 2025-only server earns", async () => {
    const { code, stdout } = await runCli(["check", server.url, "--json"]);
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(code).toBe(0);
    expect(report.era).toBe("legacy");
    // It speaks only the 2025 handshake, so it has no server/discover: its own choice, which the
    // report marks as a warning (and skips the 2026-07-28 checks).
    expect(warnings(report)).toEqual(["discover.answers"]);
    const passed = report.checks.filter((c) => c.status === "pass").map((c) => c.id);
    expect(passed).toEqual(
      expect.arrayContaining([
        "legacy.initialize",
        "legacy.ping",
        "legacy.tools-list",
        "messages.shapes",
      ]),
    );
  });
});

describe("edgemcp against the SDK v1's simpleStreamableHttp example", () => {
  let server: ThirdPartyServer;
  beforeAll(async () => {
    server = await startThirdParty("sdkSimple");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists its catalog", async () => {
    const { code, stdout, stderr } = await runCli(["list", server.url]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^simple-streamable-http-server 1\.0\.0 · MCP 2025-11-25 · /m);
    expect(stdout).toMatch(/^ {2}greet +A simple greeting tool$/m);
  });

  it("calls greet, and multi-greet, which logs between its delays", async () => {
    const greet = await runCli(["call", server.url, "greet", "--args", '{"name":"Ann"}']);
    expect([greet.code, greet.stdout.trim()]).toEqual([0, "Hello, Ann!"]);
    const multi = await runCli(["call", server.url, "multi-greet", "--args", '{"name":"Ann"}']);
    expect([multi.code, multi.stdout.trim()]).toEqual([0, "Good morning, Ann!"]);
  });

  it("declines its form elicitation without --answer, showing an --answer with the required fields", async () => {
    const args = JSON.stringify({ infoType: "contact" });
    const ran = await runCli(["call", server.url, "collect-user-info", "--args", args]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(
      `  declined: no --answer given; to accept, pass --answer '{"elicitation":{"action":"accept","content":{"name":"…","email":"…"}}}'\n`,
    );
    expect(ran.stdout).toContain("User declined");
  });

  it("checks it with no failure; its warnings are its own (no 2026 endpoint, no CORS)", async () => {
    const { code, stdout } = await runCli(["check", server.url, "--json"]);
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(code).toBe(0);
    // The example speaks only the 2025 handshake, and sends no CORS headers at all (it is not
    // meant to be reached from a browser page): both are its authors' choices.
    expect(warnings(report)).toEqual(["discover.answers", "cors.preflight", "cors.response"]);
  });
});

describe("edgemcp against the SDK v1's ssePollingExample", () => {
  let server: ThirdPartyServer;
  beforeAll(async () => {
    server = await startThirdParty("sdkPolling");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("resumes a call whose stream the server closes midway, and prints its result", async () => {
    // The server closes the call's stream after two log messages and finishes while the client
    // is away; the client comes back after its retry (2 s) with Last-Event-ID.
    const { code, stdout, stderr } = await runCli(["call", server.url, "long-task"]);
    // Its log messages, the one sent while the client was away included, come on stderr.
    expect(stderr.trim().split("\n")).toEqual([
      "log info: Progress: 25% - Starting work...",
      "log info: Progress: 50% - Halfway there...",
      "log info: Progress: 75% - Almost done (sent while client disconnected)...",
      "log info: Progress: 100% - Complete!",
    ]);
    expect([code, stdout.trim()]).toEqual([0, "Long task completed successfully!"]);
    expect(server.output()).toMatch(/Closing SSE stream to trigger client polling/);
  });
});

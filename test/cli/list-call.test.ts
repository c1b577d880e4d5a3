import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { connect, type McpClient } from "../../shared/client/index.ts";
import { serverUrl, textOf } from "../interop/support/clients.ts";
import { serveFetch } from "../interop/support/http.ts";
import { sh } from "../support/sh.ts";
import { runCli } from "./cli.ts";

const everything = serverUrl("everything").href;
const ROOT_VERSION = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"))).version;
const Listed = z.object({
  server: z.object({ protocolVersion: z.string() }),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  prompts: z.array(z.unknown()).optional(),
  resources: z.array(z.unknown()).optional(),
  resourceTemplates: z.array(z.unknown()).optional(),
});

let client: McpClient;
beforeAll(async () => {
  client = await connect(everything);
});
afterAll(async () => {
  await client.close();
});

describe("edgemcp list", () => {
  it("shows every kind the server advertises, with counts", async () => {
    const { code, stdout } = await runCli(["list", everything]);
    const tools = (await client.listTools()).result.tools;
    expect(code).toBe(0);
    expect(stdout).toContain("MCP 2026-07-28");
    expect(stdout).toContain(`Tools (${tools.length})`);
    expect(stdout).toMatch(/^ {2}add_numbers +Adds two numbers; the result is structured content/m);
    expect(stdout).toMatch(/^Prompts \(\d+\)$/m);
    expect(stdout).toMatch(/^Resources \(\d+\)$/m);
    expect(stdout).toMatch(/^Resource templates \(\d+\)$/m);
  });

  it("prints one kind as JSON, as the server listed it", async () => {
    const { code, stdout } = await runCli(["list", everything, "tools", "--json"]);
    expect(code).toBe(0);
    const listed = Listed.parse(JSON.parse(stdout));
    expect(listed.tools).toEqual((await client.listTools()).result.tools);
    expect(Object.keys(listed)).toEqual(["server", "tools"]);
  });

  it("refuses an unknown kind with exit code 2", async () => {
    const { code, stderr } = await runCli(["list", everything, "widgets"]);
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown kind "widgets"');
  });

  it("prints a curl command that, run by a shell, lists the tools", async () => {
    const { code, stdout } = await runCli(["list", everything, "tools", "--curl"]);
    expect(code).toBe(0);
    const ran = await sh("sh", ["-c", stdout], tmpdir());
    const reply = z
      .object({ result: z.object({ tools: z.array(z.unknown()) }) })
      .parse(JSON.parse(ran.stdout));
    expect(reply.result.tools.length).toBeGreaterThan(0);
  });
});

describe("edgemcp call", () => {
  it("prints a tool's result", async () => {
    const { code, stdout } = await runCli([
      "call",
      everything,
      "add_numbers",
      "--args",
      '{"a":2,"b":3}',
    ]);
    expect([code, stdout]).toEqual([0, '{"sum":5}\n']);
  });

  it("prints the whole result with --json", async () => {
    const { stdout } = await runCli([
      "call",
      everything,
      "add_numbers",
      "--args",
      '{"a":2,"b":3}',
      "--json",
    ]);
    expect(JSON.parse(stdout)).toMatchObject({
      structuredContent: { sum: 5 },
      resultType: "complete",
    });
  });

  it("reads the arguments from a file with --args @path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "edgemcp-args-"));
    await writeFile(join(dir, "args.json"), '{"a":20,"b":22}');
    const { stdout } = await runCli([
      "call",
      everything,
      "add_numbers",
      "--args",
      `@${join(dir, "args.json")}`,
    ]);
    await rm(dir, { recursive: true });
    expect(stdout).toBe('{"sum":42}\n');
  });

  it("reports progress on stderr, the result on stdout", async () => {
    const { code, stdout, stderr } = await runCli([
      "call",
      everything,
      "test_slow_counter",
      "--args",
      '{"steps":3,"delayMs":10}',
    ]);
    expect([code, stdout]).toEqual([0, "Counted to 3\n"]);
    expect(stderr.trim().split("\n")).toEqual([
      "progress 1/3 Step 1 of 3",
      "progress 2/3 Step 2 of 3",
      "progress 3/3 Step 3 of 3",
    ]);
  });

  it("exits 1 when the tool reports an error, printing it", async () => {
    const { code, stdout, stderr } = await runCli(["call", everything, "test_error_handling"]);
    expect(code).toBe(1);
    expect(stdout).toBe("This tool intentionally returns an error for testing\n");
    expect(stderr).toContain('The tool "test_error_handling" reported an error.');
  });

  it("exits 1 with the server's message for an unknown tool", async () => {
    const { code, stderr } = await runCli(["call", everything, "no_such_tool"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/Unknown tool "no_such_tool".*\(JSON-RPC -32602\)/);
  });

  it("refuses arguments that are not a JSON object with exit code 2", async () => {
    for (const args of ["[1,2]", "{oops"]) {
      const { code, stderr } = await runCli(["call", everything, "add_numbers", "--args", args]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/--args/);
    }
  });

  it("prints a curl command with the Mcp-Param-* headers that, run by a shell, calls the tool", async () => {
    const args = [
      "call",
      everything,
      "test_x_mcp_header",
      "--args",
      '{"region":"Zürich"}',
      "--curl",
    ];
    const { code, stdout } = await runCli(args);
    expect(code).toBe(0);
    expect(stdout).toContain("-H 'Mcp-Param-Region: =?base64?WsO8cmljaA==?='");
    const ran = await sh("sh", ["-c", stdout], tmpdir());
    const reply = z.object({ result: z.unknown() }).parse(JSON.parse(ran.stdout));
    expect(textOf(reply.result)).toBe("region=Zürich priority=- urgent=-");
  });

  it("does not call the tool when printing curl, and keeps an environment token out of it", async () => {
    const methods: string[] = [];
    const upstream = await serveFetch(async (request) => {
      const body = z.object({ id: z.number(), method: z.string() }).parse(await request.json());
      methods.push(body.method);
      return Response.json({
        jsonrpc: "2.0",
        id: body.id,
        result: {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
          ttlMs: 0,
          cacheScope: "private",
          tools: [],
        },
      });
    });
    const { stdout } = await runCli(["call", `${upstream.origin}/mcp`, "deploy", "--curl"], {
      EDGEMCP_TOKEN: "s3cret",
    });
    await upstream.close();
    expect(methods).not.toContain("tools/call");
    expect(stdout).toContain('-H "Authorization: Bearer $EDGEMCP_TOKEN"');
    expect(stdout).not.toContain("s3cret");
  });
});

describe("edgemcp usage", () => {
  it("exits 2 on an unknown command or option, and 0 with the help or the version", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    expect((await runCli(["list", everything, "--frob"])).code).toBe(2);
    const elsewhere = await runCli(["check", everything, "--curl"]);
    expect([elsewhere.code, elsewhere.stderr]).toEqual([
      2,
      expect.stringContaining("Unknown option '--curl'"),
    ]);
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("edgemcp stdio <url>");
    const version = await runCli(["--version"]);
    expect(version.stdout.trim()).toBe(ROOT_VERSION);
  });

  it("refuses a URL that is not http(s)", async () => {
    const { code, stderr } = await runCli(["list", "ftp://example.com/mcp"]);
    expect(code).toBe(2);
    expect(stderr).toContain("must be http: or https:");
  });
});

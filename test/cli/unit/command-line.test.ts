import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../../cli/options.ts";
import { runCli } from "../cli.ts";

const OPTIONS = { json: { type: "boolean" }, args: { type: "string" } } as const;

function usageOf(args: string[]): string {
  try {
    parseCommandLine(args, OPTIONS);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${args.join(" ")} parsed`);
}

describe("the edgemcp command line", () => {
  it("aligns the help's environment variables with their descriptions", async () => {
    const { stdout } = await runCli(["--help"]);
    const lines = stdout.slice(stdout.indexOf("Environment:\n")).split("\n").slice(1, 4);
    expect(lines.map((line) => line.match(/^ {2}(EDGEMCP_\w+) +(?=\S)/)?.[0].length)).toEqual([
      23, 23, 23,
    ]);
  });

  it("names an unknown option as it was typed, long or short, and nothing more", () => {
    expect(usageOf(["http://x/mcp", "--bogus"])).toBe("Unknown option '--bogus'.");
    expect(usageOf(["--Json", "http://x/mcp"])).toBe("Unknown option '--Json'.");
    expect(usageOf(["http://x/mcp", "-x"])).toBe("Unknown option '-x'.");
  });

  it("keeps Node's words for the other mistakes", () => {
    expect(usageOf(["http://x/mcp", "--args"])).toBe("Option '--args <value>' argument missing");
    expect(usageOf(["http://x/mcp", "--json=1"])).toBe("Option '--json' does not take an argument");
  });

  it("says the same from every command, login and logout included, with exit code 2", async () => {
    const commands = ["list", "call", "check", "stdio", "login", "logout"];
    const ran = await Promise.all(
      commands.map((command) => runCli([command, "http://127.0.0.1:9/mcp", "--frob"])),
    );
    expect(ran.map(({ code, stderr }) => [code, stderr])).toEqual(
      commands.map((command) => [
        2,
        `edgemcp ${command}: Unknown option '--frob'.\nRun "edgemcp ${command} --help".\n`,
      ]),
    );
  });
  it("list and call refuse --json with --curl, which prints no answer to format", async () => {
    const ran = await Promise.all([
      runCli(["list", "http://127.0.0.1:9/mcp", "--json", "--curl"]),
      runCli(["call", "http://127.0.0.1:9/mcp", "t", "--curl", "--json"]),
    ]);
    expect(ran.map(({ code, stderr }) => [code, stderr.split("\n")[0]])).toEqual(
      ["list", "call"].map((command) => [
        2,
        `edgemcp ${command}: --json and --curl do not go together: --curl prints the request, not its answer.`,
      ]),
    );
  });

  it("says why --args @file cannot be read, without the error's class name", async () => {
    const missing = join(tmpdir(), "edgemcp-no-such-args.json");
    const { code, stderr } = await runCli([
      "call",
      "http://127.0.0.1:9/mcp",
      "t",
      "--args",
      `@${missing}`,
    ]);
    expect([code, stderr.split("\n")[0]]).toEqual([
      2,
      `edgemcp call: Cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'`,
    ]);
  });
  it("check refuses an --origin that is no browser origin (a path, no scheme, another scheme)", async () => {
    const given = ["localhost:6274", "http://localhost:6274/app", "file:///x", "inspector"];
    const ran = await Promise.all(
      given.map((origin) => runCli(["check", "http://127.0.0.1:9/mcp", "--origin", origin])),
    );
    expect(ran.map(({ code, stderr }) => [code, stderr.split("\n")[0]])).toEqual(
      given.map((origin) => [
        2,
        `edgemcp check: --origin takes a browser origin: a scheme, a host and maybe a port, without a path (e.g. http://localhost:6274), got ${JSON.stringify(origin)}.`,
      ]),
    );
  });

  it("check takes the opaque origin null, which sandboxed pages send", async () => {
    const { code, stderr } = await runCli(["check", "http://127.0.0.1:9/mcp", "--origin", "null"]);
    // Taken: the command goes on to the server, which is not there.
    expect(code).toBe(1);
    expect(stderr).toBe("Could not reach http://127.0.0.1:9/mcp: fetch failed (bad port)\n");
  });
});

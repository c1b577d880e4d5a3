import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { maxReplyBytes, UsageError } from "../../cli/options.ts";
import { serverUrl } from "../interop/support/clients.ts";
import { flood } from "../support/flood.ts";
import { runCli } from "./cli.ts";

const everything = serverUrl("everything").href;
const MiB = 1024 * 1024;

let server: Server | undefined;
let sent: Promise<number> = Promise.resolve(0);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
});

/** A loopback server that answers every POST with a JSON body that never ends. */
async function flooding(): Promise<string> {
  server = createServer((_req, res) => {
    sent = flood(res, "application/json", '{"jsonrpc":"2.0","id":1,"result":{"x":"', '"}}');
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe("edgemcp --max-reply-bytes", () => {
  it("takes a positive whole number of bytes and refuses anything else as a usage error", () => {
    expect(maxReplyBytes(undefined)).toBeUndefined();
    expect(maxReplyBytes("67108864")).toBe(64 * MiB);
    for (const bad of ["0", "-1", "1.5", "16MiB", "", "1e6", "99999999999999999999"]) {
      expect(() => maxReplyBytes(bad), bad).toThrow(UsageError);
    }
  });

  it("exits 2 with the rule when the value is not a number of bytes, and only where a command takes it", async () => {
    const bad = await runCli(["list", everything, "--max-reply-bytes", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-reply-bytes takes a positive whole number of bytes");
    expect(bad.stderr).toContain('got "lots"');
    const elsewhere = await runCli(["check", everything, "--max-reply-bytes", "1000"]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain("Unknown option '--max-reply-bytes'");
  });

  it("holds list and call to the bound it names, and says how to raise it", async () => {
    const small = await runCli(["list", everything, "--max-reply-bytes", "200"]);
    expect(small.code).toBe(1);
    expect(small.stderr).toContain("larger than 200 bytes");
    expect(small.stderr).toContain("pass --max-reply-bytes <bytes>");
    const called = await runCli([
      "call",
      everything,
      "echo",
      "--args",
      '{"message":"hi"}',
      "--max-reply-bytes",
      "200",
    ]);
    expect(called.code).toBe(1);
    expect(called.stderr).toContain("larger than 200 bytes");
    // The same server within a larger bound: the flag only moves the bound.
    const roomy = await runCli(["list", everything, "--max-reply-bytes", String(MiB)]);
    expect(roomy.code).toBe(0);
    expect(roomy.stdout).toContain("Tools (");
  });

  it("stops reading a server that sends without end at the bound given", async () => {
    const url = await flooding();
    const { code, stderr } = await runCli(["list", url, "--max-reply-bytes", "4096"]);
    expect(code).toBe(1);
    expect(stderr).toContain("larger than 4096 bytes");
    expect(stderr).toContain("pass --max-reply-bytes <bytes>");
    // One reader's worth past the bound, not the flood.
    expect(await sent).toBeLessThan(64 * MiB);
  });
});

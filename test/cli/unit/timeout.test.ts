import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.ts";

let silent: Server;
let url: string;
beforeAll(async () => {
  // Takes every request and never answers it, as a server stuck behind a proxy does.
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe("edgemcp list and call with --timeout", () => {
  it("give up on a server that never answers, saying which request went unanswered", async () => {
    const started = Date.now();
    const ran = await Promise.all([
      runCli(["list", url, "--timeout", "500"]),
      runCli(["call", url, "echo", "--timeout", "500"]),
    ]);
    expect(ran.map(({ code, stdout, stderr }) => [code, stdout, stderr])).toEqual([
      [1, "", "The server did not answer server/discover within --timeout.\n"],
      [1, "", "The server did not answer server/discover within --timeout.\n"],
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refuse a timeout that is not a positive whole number of milliseconds, as check does", async () => {
    const ran = await Promise.all(
      ["list", "call", "check"].map((command) =>
        runCli([command, url, ...(command === "call" ? ["echo"] : []), "--timeout", "1.5"]),
      ),
    );
    expect(ran.map(({ code, stderr }) => [code, stderr.split("\n")[0]])).toEqual(
      ["list", "call", "check"].map((command) => [
        2,
        `edgemcp ${command}: --timeout takes milliseconds, e.g. 15000.`,
      ]),
    );
  });
});

import { createServer as createHttpServer, type Server } from "node:http";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.ts";

/** A loopback port nothing listens on: one the OS just handed out and took back. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "host", version: "1.0.0" },
  },
});

describe("the edgemcp command against a server that is down", () => {
  let url: string;
  let refused: string;
  beforeAll(async () => {
    const port = await closedPort();
    url = `http://127.0.0.1:${port}/mcp`;
    refused = `connect ECONNREFUSED 127.0.0.1:${port}`;
  });

  it("list and call say why the server could not be reached, not only that fetch failed", async () => {
    for (const args of [
      ["list", url],
      ["call", url, "echo"],
    ]) {
      const { code, stdout, stderr } = await runCli(args);
      expect([code, stdout]).toEqual([1, ""]);
      expect(stderr.trim()).toBe(`Could not reach ${url}: fetch failed (${refused})`);
    }
  });

  it("the stdio bridge answers the host's request with the reason", async () => {
    const { code, stdout } = await runCli(["stdio", url], {}, `${INITIALIZE}\n`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: `Could not reach ${url}: fetch failed (${refused})` },
    });
  });

  it("check says once why the server could not be reached, without a report", async () => {
    const { code, stdout, stderr } = await runCli(["check", url]);
    expect([code, stdout]).toEqual([1, ""]);
    expect(stderr.trim()).toBe(`Could not reach ${url}: fetch failed (${refused})`);
  });
});

describe("the edgemcp command at a URL where nothing speaks MCP", () => {
  let elsewhere: Server;
  let url: string;
  beforeAll(async () => {
    // Answers every request 404 with a page, as a web server does for a path it does not serve.
    elsewhere = createHttpServer((_request, response) => response.writeHead(404).end("Not Found"));
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const address = elsewhere.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => elsewhere.close(resolve));
  });

  it("list and call ask whether the URL is the server's MCP endpoint", async () => {
    for (const args of [
      ["list", url],
      ["call", url, "echo"],
    ]) {
      const { code, stderr } = await runCli(args);
      expect([code, stderr]).toEqual([
        1,
        `HTTP 404 from the server for initialize.\nIs ${url} the server's MCP endpoint? Check the path (often /mcp).\n`,
      ]);
    }
  });
});

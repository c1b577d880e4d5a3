import { afterEach, describe, expect, it } from "vitest";
import { connect, McpError } from "../../../shared/client/index.ts";
import { discoverResult, startFakeServer, type FakeRoute, type FakeServer } from "./fake-server.ts";

const INITIALIZE_RESULT = {
  protocolVersion: "2025-06-18",
  capabilities: { tools: {} },
  serverInfo: { name: "fake-2025", version: "0.9.0" },
  instructions: "Old but gold.",
};

const legacyInitialize: FakeRoute = (_call, reply) => reply.result(INITIALIZE_RESULT);

describe("edgemcp client: era detection against fake servers", () => {
  let fake: FakeServer;
  afterEach(() => fake.close());

  it("falls back to initialize when discover gets a 404 without a JSON-RPC body", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.text(404, "Not Found"),
      initialize: legacyInitialize,
    });
    const client = await connect(fake.url);
    expect(client.era).toBe("legacy");
    expect(client.eraTraits).toEqual({ label: "2025 handshake", handshake: true, listen: false });
    expect(client.server).toEqual({
      era: "legacy",
      protocolVersion: "2025-06-18",
      supportedVersions: ["2025-06-18"],
      capabilities: { tools: {} },
      instructions: "Old but gold.",
      serverInfo: { name: "fake-2025", version: "0.9.0" },
    });
    expect(fake.calls.map((call) => call.method)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      // The session's background stream, opened once the handshake is over.
      "(GET)",
    ]);
    expect(fake.calls[1]?.params).toMatchObject({
      protocolVersion: "2025-11-25",
      clientInfo: { name: "edgemcp-client" },
    });
    expect(fake.calls[2]?.headers.get("mcp-protocol-version")).toBe("2025-06-18");
  });

  it("falls back when discover is unknown to the server (-32601 at HTTP 200)", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.error(-32601, "Method not found"),
      initialize: legacyInitialize,
    });
    expect((await connect(fake.url)).era).toBe("legacy");
  });

  it("falls back when -32022 names only 2025 versions", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) =>
        reply.error(-32022, "Unsupported", {
          status: 400,
          data: { supported: ["2025-11-25"], requested: "2026-07-28" },
        }),
      initialize: legacyInitialize,
    });
    expect((await connect(fake.url)).era).toBe("legacy");
  });

  it("stays modern when discover names a mutual version", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.result(discoverResult({ vendorExtra: 1 })),
    });
    const client = await connect(fake.url);
    expect(client.era).toBe("modern");
    expect(client.eraTraits).toEqual({ label: "2026 stateless", handshake: false, listen: true });
    expect(client.server.serverInfo).toEqual({ name: "fake-2026", version: "1.0.0" });
    expect(fake.callsOf("initialize")).toEqual([]);
  });

  it("fails (no fallback) when a 2026 server refuses the probe's headers with -32020", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.error(-32020, "Header mismatch", { status: 400 }),
    });
    await expect(connect(fake.url)).rejects.toMatchObject({ kind: "rpc", code: -32020 });
    expect(fake.callsOf("initialize")).toEqual([]);
  });

  it("fails on a second -32022 instead of retrying forever", async () => {
    fake = await startFakeServer({
      "server/discover": (call, reply) =>
        reply.error(-32022, "Unsupported", {
          status: 400,
          data: { supported: ["2026-07-28", "2027-01-01"], requested: call.params._meta },
        }),
    });
    await expect(
      connect(fake.url, { versions: ["2027-01-01", "2026-07-28"] }),
    ).rejects.toMatchObject({ kind: "rpc", code: -32022 });
    expect(fake.callsOf("server/discover")).toHaveLength(2);
  });

  it("fails on a 5xx instead of guessing the era", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.text(503, "Service Unavailable"),
    });
    const attempt = connect(fake.url);
    await expect(attempt).rejects.toBeInstanceOf(McpError);
    await expect(attempt).rejects.toMatchObject({
      kind: "http",
      status: 503,
      data: { body: "Service Unavailable" },
    });
  });

  it("fails when discover names only versions the client does not offer", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) =>
        reply.result(discoverResult({ supportedVersions: ["2027-01-01"] })),
    });
    await expect(connect(fake.url)).rejects.toMatchObject({
      kind: "protocol",
      code: undefined,
      method: "server/discover",
      message: "The server supports none of the client's protocol versions.",
      data: { supported: ["2027-01-01"], offered: ["2026-07-28"] },
    });
    expect(fake.callsOf("initialize")).toEqual([]);
  });

  it("fails before any request when the client offers no version", async () => {
    fake = await startFakeServer({});
    await expect(connect(fake.url, { versions: [] })).rejects.toMatchObject({
      kind: "client",
      code: undefined,
      message: "The client offers no protocol version.",
    });
    expect(fake.calls).toEqual([]);
  });

  it("fails when a 2025 server refuses notifications/initialized", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.text(404, "Not Found"),
      initialize: legacyInitialize,
      "notifications/initialized": (_call, reply) => reply.text(400, "Bad Request"),
    });
    await expect(connect(fake.url)).rejects.toMatchObject({
      kind: "http",
      code: undefined,
      status: 400,
      era: "legacy",
      method: "notifications/initialized",
      message: "The server refused notifications/initialized with HTTP 400.",
    });
  });

  it("refuses a 2025 server that picks a version the client does not speak", async () => {
    fake = await startFakeServer({
      "server/discover": (_call, reply) => reply.text(405, ""),
      initialize: (_call, reply) =>
        reply.result({ ...INITIALIZE_RESULT, protocolVersion: "2023-01-01" }),
    });
    await expect(connect(fake.url)).rejects.toMatchObject({
      kind: "protocol",
      method: "initialize",
    });
  });
});

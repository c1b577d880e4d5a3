import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { assertWireValid, haveSchemas } from "../support/wire-schema.ts";

// CI as vitest.config.ts passes it in (workerd has no process.env of the machine).
const ci = String(Reflect.get(env, "TEST_CI") ?? "");
const inCi = ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";

// Without the schemas every wire-schema check in the suite passes silently: fine in a plain
// clone, a hidden gap in CI.
it.runIf(inCi)("has the official schemas when run in CI", () => {
  expect(
    haveSchemas(),
    "CI must have ../shared/spec/schema-2026-07-28.json and schema-2025-11-25.json beside the project",
  ).toBe(true);
});

// The checker every other test relies on must itself be able to fail.
describe.runIf(haveSchemas())("the wire-schema checker", () => {
  it("rejects a 2026 list result without resultType, ttlMs and cacheScope", () => {
    expect(() =>
      assertWireValid({ jsonrpc: "2.0", id: 1, result: { tools: [] } }, "tools/list", "2026"),
    ).toThrow(/resultType/);
  });

  it("accepts the same result in the 2025 schema", () => {
    expect(() =>
      assertWireValid({ jsonrpc: "2.0", id: 1, result: { tools: [] } }, "tools/list", "2025"),
    ).not.toThrow();
  });

  it("accepts an error with a null id, as JSON-RPC 2.0 sends one before the id is read", () => {
    expect(() =>
      assertWireValid(
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } },
        "tools/list",
        "2026",
      ),
    ).not.toThrow();
  });

  it("rejects a result with a null id", () => {
    expect(() =>
      assertWireValid(
        { jsonrpc: "2.0", id: null, result: { resultType: "complete" } },
        "ping",
        "2026",
      ),
    ).toThrow();
  });

  it("rejects an error with an id that is neither string nor number", () => {
    expect(() =>
      assertWireValid(
        { jsonrpc: "2.0", id: true, error: { code: -32600, message: "x" } },
        "tools/list",
        "2026",
      ),
    ).toThrow();
  });

  it("rejects a -32022 error without data.supported", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32022, message: "x", data: { requested: "x" } },
    };
    expect(() => assertWireValid(message, "server/discover", "2026")).toThrow(
      /UnsupportedProtocolVersionError/,
    );
  });
});

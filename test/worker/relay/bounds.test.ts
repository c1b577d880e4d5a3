import { describe, expect, it } from "vitest";
import { TEST_TOKENS } from "../../support/secrets.ts";
import { pageToken, refusal, relay, targets } from "./support.ts";

const DEV = { RELAY_DEV: "on" };

describe("the relay bounds every exchange", () => {
  it("refuses a request body over RELAY_MAX_REQUEST_BYTES with 413, naming it", async () => {
    const vars = { ...DEV, RELAY_MAX_REQUEST_BYTES: "1000" };
    const found = await refusal(
      await relay({ target: `${targets()}/echo`, body: "x".repeat(1001), vars }),
    );
    expect(found).toMatchObject({ status: 413, rule: "request-size" });
    expect(found.message).toMatch(/1000 bytes \(RELAY_MAX_REQUEST_BYTES\)/);
  });

  it("refuses an answer declared larger than RELAY_MAX_RESPONSE_BYTES before passing any of it", async () => {
    const found = await refusal(
      await relay({ target: `${targets()}/huge-declared`, method: "GET" }),
    );
    expect(found).toMatchObject({ status: 502, rule: "response-size" });
    expect(found.message).toMatch(/104857600 bytes.*RELAY_MAX_RESPONSE_BYTES/);
  });

  it("cuts off a streamed 100 MB answer at RELAY_MAX_RESPONSE_BYTES", async () => {
    const vars = { ...DEV, RELAY_MAX_RESPONSE_BYTES: String(1024 * 1024) };
    const response = await relay({ target: `${targets()}/huge`, method: "GET", vars });
    expect(response.status).toBe(200);
    let received = 0;
    const reader = response.body!.getReader();
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received += value.byteLength;
      }
    })().catch((error: Error) => error);
    expect(failure?.message).toMatch(/larger than 1048576 bytes \(RELAY_MAX_RESPONSE_BYTES\)/);
    expect(received).toBeLessThanOrEqual(1024 * 1024);
  });

  it("answers 504 naming RELAY_FIRST_BYTE_MS when the target never answers", async () => {
    const vars = { ...DEV, RELAY_FIRST_BYTE_MS: "300" };
    const found = await refusal(await relay({ target: `${targets()}/never`, method: "GET", vars }));
    expect(found).toMatchObject({ status: 504, rule: "first-byte" });
    expect(found.message).toMatch(/300 ms \(RELAY_FIRST_BYTE_MS\)/);
  });

  it("ends an SSE stream that goes quiet past RELAY_IDLE_MS with a relay-error event", async () => {
    const vars = { ...DEV, RELAY_IDLE_MS: "300" };
    const response = await relay({ target: `${targets()}/quiet-sse`, method: "GET", vars });
    const text = await response.text();
    expect(text).toContain('data: {"n":1}');
    expect(text).toMatch(/event: relay-error\ndata: \{"rule":"idle".*RELAY_IDLE_MS/);
  });

  it("ends a stream that never ends at RELAY_TOTAL_MS", async () => {
    const vars = { ...DEV, RELAY_TOTAL_MS: "500" };
    const response = await relay({ target: `${targets()}/forever-sse`, method: "GET", vars });
    const text = await response.text();
    expect(text).toMatch(/data: \{"tick"/);
    expect(text).toMatch(/event: relay-error\ndata: \{"rule":"total-time".*RELAY_TOTAL_MS/);
  });

  it("errors a malformed chunked body rather than passing it as whole", async () => {
    const response = await relay({ target: `${targets()}/malformed-chunked`, method: "GET" });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(/broke off/);
  });

  it("refuses more open exchanges per caller than RELAY_MAX_CONCURRENT, and frees a slot when one ends", async () => {
    const vars = { ...DEV, RELAY_MAX_CONCURRENT: "1" };
    const token = await pageToken(undefined, vars, `Bearer ${TEST_TOKENS.bob}`);
    const id = crypto.randomUUID();
    const first = await relay({
      target: `${targets()}/held-sse?id=${id}`,
      method: "GET",
      token,
      vars,
    });
    expect(first.status).toBe(200);
    const found = await refusal(await relay({ target: `${targets()}/echo`, token, vars }));
    expect(found).toMatchObject({ status: 429, rule: "concurrency" });
    expect(found.message).toMatch(/RELAY_MAX_CONCURRENT/);
    // Another caller has slots of its own.
    const other = await relay({ target: `${targets()}/echo`, vars });
    expect(other.status).toBe(200);
    await other.body?.cancel();
    await first.body!.cancel();
    const again = await relay({ target: `${targets()}/echo`, token, vars });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it("gives a slot back when an exchange is read to its end", async () => {
    const vars = { ...DEV, RELAY_MAX_CONCURRENT: "1" };
    for (let i = 0; i < 3; i++) {
      const response = await relay({ target: `${targets()}/echo`, body: "{}", vars });
      expect(response.status).toBe(200);
      await response.text();
    }
  });

  it("answers 502 without internals when the target cannot be reached", async () => {
    const found = await refusal(await relay({ target: "http://127.0.0.1:9/mcp", body: "{}" }));
    expect(found).toMatchObject({ status: 502, rule: "unreachable" });
    expect(found.message).toBe(
      "The relay could not reach 127.0.0.1:9 (connection refused, name not found, or TLS failed).",
    );
  });
});

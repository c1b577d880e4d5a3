import { describe, expect, it } from "vitest";
import { refusal, relay, targets } from "./support.ts";

const decoder = new TextDecoder();

/** Reads a body until `text` has arrived (or the body ends), leaving the rest unread. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string) {
  let seen = "";
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
  }
  return seen;
}

describe("the relay streams the target's answer", () => {
  it("passes each SSE event on as it arrives, before the target sends the next", async () => {
    const id = crypto.randomUUID();
    const response = await relay({ target: `${targets()}/held-sse?id=${id}`, method: "GET" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    // The target holds its second event until told to send it: the first arrives alone.
    expect(await readUntil(reader, '{"n":1}')).toContain('data: {"n":1}');
    await fetch(`${targets()}/release?id=${id}`).then((r) => r.text());
    const rest = await readUntil(reader, '{"n":2}');
    expect(rest).toContain('data: {"n":2}');
    expect((await reader.read()).done).toBe(true);
  });

  it("relays a slow SSE stream whole", async () => {
    const response = await relay({ target: `${targets()}/slow-sse`, method: "GET" });
    const text = await response.text();
    expect(text.match(/^data: /gm)).toHaveLength(3);
  });

  it("gets around a server that refuses foreign origins: the page's Origin is not forwarded", async () => {
    const direct = await fetch(`${targets()}/origin-guard`, {
      method: "POST",
      headers: { Origin: "http://localhost:8787" },
    });
    expect(direct.status).toBe(403);
    await direct.body?.cancel();
    const relayed = await relay({ target: `${targets()}/origin-guard`, body: "{}" });
    expect(relayed.status).toBe(200);
    expect(await relayed.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("forwards GET and DELETE as those methods", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await relay({ target: `${targets()}/echo`, method });
      const seen: { method: string } = await response.json();
      expect(seen.method).toBe(method);
    }
  });
});

describe("the relay does not follow redirects", () => {
  it("passes a redirect back with its Location as Relay-Location, which the browser will not follow", async () => {
    const response = await relay({ target: `${targets()}/redirect-relative`, body: "{}" });
    expect(response.status).toBe(307);
    expect(response.headers.get("Location")).toBeNull();
    expect(response.headers.get("Relay-Location")).toBe(`${targets()}/echo`);
  });

  it("never fetches a redirect's internal target, and refuses it when asked to follow", async () => {
    const response = await relay({ target: `${targets()}/redirect-private`, method: "GET" });
    expect(response.status).toBe(302);
    const location = response.headers.get("Relay-Location")!;
    expect(location).toBe("http://169.254.169.254/latest/meta-data/");
    const followed = await refusal(await relay({ target: location, method: "GET" }));
    expect(followed).toMatchObject({ status: 403, rule: "internal-address" });
    expect(followed.message).not.toMatch(/at |\.ts/);
  });
});

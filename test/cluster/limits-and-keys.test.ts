import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.ts";
import { startCluster, type Cluster } from "./cluster.ts";
import { clusterBindings, randomSecret, TOKENS, testBundle } from "./fixtures.ts";
import { finalOf, reader, send } from "./wire.ts";

// A sealing key mid-rotation: process 1 still seals with the old secret, process 2 has the new
// one and accepts the old for the overlap, process 3 has only the new one (the overlap is over).
const OLD = randomSecret();
const NEW = randomSecret();
const TOOL_CALLS = 4;
const LISTEN_STREAMS = 2;
/** The Worker's keep-alive interval on SSE streams (its default). */
const KEEP_ALIVE_MS = 15_000;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({
    ...testBundle(),
    workers: 3,
    bindings: clusterBindings({
      RATE_LIMIT_TOOL_CALLS: String(TOOL_CALLS),
      MAX_LISTEN_STREAMS: String(LISTEN_STREAMS),
    }),
    workerBindings: {
      0: { EDGEMCP_SECRET: OLD },
      1: { EDGEMCP_SECRET: NEW, EDGEMCP_PREVIOUS_SECRETS: OLD },
      2: { EDGEMCP_SECRET: NEW },
    },
  });
});
afterAll(() => cluster?.stop());

/** One process's own address (a test that needs a given key, not the next in turn). */
const processUrl = (index: number) => `http://127.0.0.1:${cluster.workers[index]?.port}`;

describe("per-caller limits across processes", () => {
  it("count a caller's tool calls once, whichever process each landed on", async () => {
    const call = () =>
      send(
        cluster.url,
        "everything",
        "tools/call",
        { name: "add_numbers", arguments: { a: 1, b: 2 } },
        { token: TOKENS.carol },
      );
    const servedBy = new Set<number>();
    for (let i = 0; i < TOOL_CALLS; i++) {
      const sent = await call();
      servedBy.add(sent.servedBy);
      expect((await finalOf(sent)).result.content[0].text).toContain("3");
    }
    expect(servedBy.size).toBe(3);
    // Each process saw at most two of them: only a count shared by all refuses the next one.
    const over = await call();
    expect(over.response.status).toBe(429);
    expect(Number(over.response.headers.get("Retry-After"))).toBeGreaterThan(0);
    await over.response.body?.cancel();
    // Another caller has a count of its own.
    const other = await send(
      cluster.url,
      "everything",
      "tools/call",
      { name: "add_numbers", arguments: { a: 1, b: 2 } },
      { token: TOKENS.bob },
    );
    expect((await finalOf(other)).result.isError).not.toBe(true);
  });

  it("cap a caller's open listen streams across processes", async () => {
    const listen = () =>
      send(
        cluster.url,
        "everything",
        "subscriptions/listen",
        { notifications: { toolsListChanged: true } },
        { token: TOKENS.carol },
      );
    const open = [await listen(), await listen()];
    const streams = open.map((sent) => reader(sent));
    for (const stream of streams)
      expect((await stream.next())?.method).toBe("notifications/subscriptions/acknowledged");
    expect(open[0]?.servedBy).not.toBe(open[1]?.servedBy);
    const third = await listen();
    expect(third.servedBy).not.toBe(open[0]?.servedBy);
    expect(third.servedBy).not.toBe(open[1]?.servedBy);
    expect(third.response.status).toBe(429);
    await third.response.body?.cancel();
    for (const stream of streams) await stream.close();
  });
});

describe("a listen stream the client closes", () => {
  it("gives its place in the caller's cap back by the stream's next keep-alive, when workerd notices the closed connection", async () => {
    const listen = (signal?: AbortSignal) =>
      send(
        cluster.url,
        "everything",
        "subscriptions/listen",
        { notifications: { toolsListChanged: true } },
        { token: TOKENS.bob, ...(signal ? { signal } : {}) },
      );
    const closing = new AbortController();
    const first = reader(await listen(closing.signal));
    const second = reader(await listen());
    for (const stream of [first, second])
      expect((await stream.next())?.method).toBe("notifications/subscriptions/acknowledged");
    const full = await listen();
    expect(full.response.status).toBe(429);
    await full.response.body?.cancel();
    // The client goes away (its connection closed, as a closed tab's is).
    closing.abort();
    const closedAt = Date.now();
    const third = await eventually(
      async () => {
        const sent = await listen();
        if (sent.response.status === 200) return sent;
        await sent.response.body?.cancel();
        return undefined;
      },
      { intervalMs: 200, timeoutMs: 25_000, what: "the closed stream's place to be given back" },
    );
    const ms = Date.now() - closedAt;
    console.log(`listen place given back ${ms} ms after the client closed`);
    // Locally workerd learns of a closed connection only when it next writes to it (the
    // request's signal does not abort): a keep-alive comment, every 15 s.
    expect(ms).toBeLessThan(KEEP_ALIVE_MS + 5_000);
    const stream = reader(third);
    expect((await stream.next())?.method).toBe("notifications/subscriptions/acknowledged");
    await stream.close();
    await second.close();
  });
});

describe("handles while the sealing key rotates", () => {
  const firstPage = async (index: number) =>
    (
      await finalOf(
        await send(processUrl(index), "everything", "resources/list", {}, { token: TOKENS.alice }),
      )
    ).result;
  const nextPage = async (index: number, cursor: string) =>
    finalOf(
      await send(
        processUrl(index),
        "everything",
        "resources/list",
        { cursor },
        { token: TOKENS.alice },
      ),
    );

  it("opens a handle sealed with the old key on a process that still accepts it, and one sealed with the new key everywhere the new key is", async () => {
    const old = await firstPage(0);
    expect((await nextPage(1, old.nextCursor)).result.resources.length).toBeGreaterThan(0);
    const sealedNew = await firstPage(1);
    expect((await nextPage(2, sealedNew.nextCursor)).result.resources.length).toBeGreaterThan(0);
  });

  it("refuses a handle sealed with the old key once the overlap is over, with a clear error", async () => {
    const old = await firstPage(0);
    const refused = await nextPage(2, old.nextCursor);
    console.log(`old-key cursor after the overlap: ${JSON.stringify(refused.error)}`);
    expect(refused.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/cursor/i),
    });
    expect(refused.error.message).toMatch(/without a cursor/);
    // Nothing of the secrets in it.
    expect(JSON.stringify(refused)).not.toContain(OLD);
    expect(JSON.stringify(refused)).not.toContain(NEW);
  });
});

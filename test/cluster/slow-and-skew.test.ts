import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "./cluster.ts";
import { clusterBindings, TOKENS, testBundle } from "./fixtures.ts";
import { finalOf, reader, send, TASKS, type Sent } from "./wire.ts";

const MINUTE = 60_000;
const TIMEOUT_MS = 1_500;

// Process 1 keeps the machine's time, process 2 runs 5 minutes ahead, process 3 61 minutes
// behind: more than a list cursor's hour.
const OFFSETS = [0, 5 * MINUTE, -61 * MINUTE];

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({
    ...testBundle(),
    workers: 3,
    bindings: clusterBindings({ COORDINATION_TIMEOUT_MS: String(TIMEOUT_MS) }),
    workerBindings: Object.fromEntries(
      OFFSETS.map((offset, index) => [index, { CLUSTER_CLOCK_OFFSET_MS: String(offset) }]),
    ),
  });
});
afterAll(() => cluster?.stop());

const alice = { token: TOKENS.alice };
const processUrl = (index: number) => `http://127.0.0.1:${cluster.workers[index]?.port}`;

/** Makes the host's objects of `className` wait `ms` before each call (0: answer at once). */
async function slow(className: string, ms: number): Promise<void> {
  const response = await fetch(
    `http://127.0.0.1:${cluster.host.port}/__cluster/slow?class=${className}&ms=${ms}`,
    { method: "POST" },
  );
  expect(await response.text()).toBe("ok\n");
}

/** A request's refusal and how long it took to come. */
async function timed(request: () => Promise<Sent>) {
  const started = Date.now();
  const sent = await request();
  const reply = await finalOf(sent);
  return { status: sent.response.status, reply, ms: Date.now() - started };
}

describe("a slow Durable Object", () => {
  it("bounds every call on it: past COORDINATION_TIMEOUT_MS the request is refused with 503 naming what did not answer, and all answers again once it is quick", async () => {
    const add = () =>
      send(
        cluster.url,
        "everything",
        "tools/call",
        { name: "add_numbers", arguments: { a: 1, b: 2 } },
        alice,
      );
    const task = (taskId: string) =>
      send(cluster.url, "ops", "tasks/get", { taskId }, { ...alice, capabilities: TASKS });
    const listen = () =>
      send(
        cluster.url,
        "notes",
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["notes://note-1"] } },
        alice,
      );
    const created = await finalOf(
      await send(
        cluster.url,
        "ops",
        "tools/call",
        { name: "scan_repo", arguments: { repo: "acme/app", files: 1, file_ms: 0 } },
        { ...alice, capabilities: TASKS },
      ),
    );
    const taskId: string = created.result.taskId;

    // Slower than usual but within the bound: answered.
    await slow("Limiter", 400);
    const slowish = await timed(add);
    expect(slowish.reply.result.content[0].text).toContain("3");

    const cases: [string, () => Promise<Sent>, string][] = [
      ["Limiter", add, "The rate limiter"],
      ["TaskObject", () => task(taskId), "The task store"],
      ["ListenBus", listen, "The listen hub"],
    ];
    for (const [className, request, what] of cases) {
      await slow(className, 3 * TIMEOUT_MS);
      const refused = await timed(request);
      console.log(
        `${className} slowed to ${3 * TIMEOUT_MS} ms: ${refused.status} after ${refused.ms} ms`,
      );
      expect(refused.status).toBe(503);
      expect(refused.reply.error).toEqual({
        code: -32603,
        message: `${what} did not answer in time (1.5 s). Try again shortly.`,
      });
      expect(refused.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(refused.ms).toBeLessThan(3 * TIMEOUT_MS);
      await slow(className, 0);
    }

    expect((await finalOf(await add())).result.content[0].text).toContain("3");
    expect((await finalOf(await task(taskId))).result.status).toBe("completed");
    const stream = reader(await listen());
    expect((await stream.next())?.method).toBe("notifications/subscriptions/acknowledged");
    await stream.close();
  });
});

describe("clocks that disagree between processes", () => {
  const firstPage = async (index: number) =>
    (await finalOf(await send(processUrl(index), "everything", "resources/list", {}, alice)))
      .result;
  const nextPage = async (index: number, cursor: string) =>
    finalOf(await send(processUrl(index), "everything", "resources/list", { cursor }, alice));

  it("honour a handle where the skew is less than what is left of its life, and refuse it beyond, saying it expired and what to do", async () => {
    // Sealed by the process on time, opened by the one 5 minutes ahead: 55 minutes were left.
    const onTime = await firstPage(0);
    expect((await nextPage(1, onTime.nextCursor)).result.resources.length).toBeGreaterThan(0);
    // Sealed by the process 61 minutes behind: to the others the hour-long cursor has already
    // expired (a minute ago, to the one on time); the one behind still pages with it.
    const behind = await firstPage(2);
    expect((await nextPage(2, behind.nextCursor)).result.resources.length).toBeGreaterThan(0);
    const refused = await nextPage(0, behind.nextCursor);
    console.log(`cursor sealed 61 min behind, opened on time: ${refused.error.message}`);
    expect(refused.error).toMatchObject({ code: -32602 });
    expect(refused.error.message).toMatch(/expired 1 minute|expired \d+ seconds/);
    expect(refused.error.message).toMatch(/without a cursor/);
  });

  it("keep a task alive by the clock of the object that holds it, whatever the clock of the process that created it", async () => {
    const created = await finalOf(
      await send(
        processUrl(2),
        "ops",
        "tools/call",
        { name: "scan_repo", arguments: { repo: "acme/app", files: 2, file_ms: 10 } },
        { ...alice, capabilities: TASKS },
      ),
    );
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const polled = await finalOf(
      await send(
        processUrl(0),
        "ops",
        "tasks/get",
        { taskId: created.result.taskId },
        { ...alice, capabilities: TASKS },
      ),
    );
    expect(polled.result?.taskId).toBe(created.result.taskId);
    // Its creation time is the object's, not the creating process's hour-old one.
    expect(Math.abs(Date.parse(polled.result.createdAt) - Date.now())).toBeLessThan(MINUTE);
  });
});

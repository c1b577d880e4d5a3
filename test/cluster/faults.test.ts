import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "./cluster.ts";
import { SERVED_BY } from "./front.ts";
import { clusterBindings, TOKENS, testBundle } from "./fixtures.ts";
import { eventually } from "../support/eventually.ts";
import { connect, McpError } from "../../shared/client/index.ts";
import { finalOf, reader, send, TASKS, type Message } from "./wire.ts";

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({
    ...testBundle(),
    workers: 2,
    bindings: clusterBindings(),
  });
});
afterAll(() => cluster?.stop());

const alice = { token: TOKENS.alice };
const counter = (steps: number) =>
  send(
    cluster.url,
    "everything",
    "tools/call",
    { name: "test_slow_counter", arguments: { steps, delayMs: 50 } },
    alice,
  );

/** The process the front sends the next request to (it takes them in turn; tests run one at a time). */
async function nextInTurn(): Promise<number> {
  const probe = await fetch(`${cluster.url}/api/servers`);
  await probe.arrayBuffer();
  return (Number(probe.headers.get(SERVED_BY)) % 2) + 1;
}

describe("faults", () => {
  it("a Worker process killed while a call streams: the client has whole messages only and an error, no response; a retry is served by the other process", async () => {
    const target = await nextInTurn();
    // A progress token: the call answers as an SSE stream, progress first.
    const streaming = await send(
      cluster.url,
      "everything",
      "tools/call",
      { name: "test_slow_counter", arguments: { steps: 200, delayMs: 50 } },
      { ...alice, meta: { progressToken: "count" } },
    );
    expect(streaming.servedBy).toBe(target);
    expect(streaming.response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    // Each message read is checked whole against the schema as it arrives.
    const stream = reader(streaming);
    const seen: Message[] = [];
    for (let i = 0; i < 3; i++) seen.push((await stream.next()) as Message);
    const killedAt = Date.now();
    cluster.kill(target - 1);
    const broken = await (async () => {
      for (;;) {
        const message = await stream.next(10_000);
        if (message === undefined) return "ended";
        seen.push(message);
      }
    })().catch((error: unknown) => error as Error);
    console.log(
      `stream of a killed process broke ${Date.now() - killedAt} ms after the kill (${String(broken)}), after ${seen.length} progress messages`,
    );
    // A broken stream, not one that ends as if complete; no timeout either.
    expect(broken).toBeInstanceOf(Error);
    expect(String(broken)).not.toMatch(/no message in/);
    // Progress only, counting up: no response (no result, no error), nothing torn.
    expect(seen.every((message) => message.method === "notifications/progress")).toBe(true);
    expect(seen.map((message) => message.params.progress)).toEqual(
      seen.map((_, index) => index + 1),
    );

    const retry = await counter(3);
    expect(retry.servedBy).not.toBe(target);
    expect((await finalOf(retry)).result.content[0].text).toBe("Counted to 3");

    await cluster.restart(target - 1);
    const served = new Set<number>();
    for (let i = 0; i < 2; i++) {
      const sent = await counter(1);
      served.add(sent.servedBy);
      expect((await finalOf(sent)).result.content[0].text).toBe("Counted to 1");
    }
    expect(served).toEqual(new Set([1, 2]));
  });

  it("edgemcp's client, its process killed while a call streams: an McpError saying the stream broke, and the same call again succeeds", async () => {
    // The process that answered the client's last response (the front names it).
    let servedBy = 0;
    const client = await connect(`${cluster.url}/mcp/everything`, {
      headers: { Authorization: `Bearer ${TOKENS.alice}` },
      backgroundStream: false,
      onWire: (event) => {
        if (event.type === "response") servedBy = Number(event.headers.get(SERVED_BY));
      },
    });
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const call = client
      .callTool(
        "test_slow_counter",
        { steps: 200, delayMs: 50 },
        { onProgress: () => progressed() },
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await firstProgress;
    const target = servedBy;
    cluster.kill(target - 1);
    const failed = await call;
    console.log(`edgemcp client on a killed process: ${String(failed)}`);
    expect(failed).toBeInstanceOf(McpError);
    expect((failed as McpError).kind).toBe("network");
    expect((failed as McpError).message).toMatch(/tools\/call/);
    const again = await client.callTool("test_slow_counter", { steps: 2, delayMs: 10 });
    expect(servedBy).not.toBe(target);
    expect(again.result.content).toEqual([{ type: "text", text: "Counted to 2" }]);
    await cluster.restart(target - 1);
  });

  it("the Durable Object host killed and restarted: listen streams end, requests are refused 503 meanwhile (limits fail closed), stored tasks keep their state and results, a new listen stream misses nothing", async () => {
    const taskCall = (method: string, params: Record<string, unknown>) =>
      send(cluster.url, "ops", method, params, { ...alice, capabilities: TASKS });
    const scan = async (files: number, fileMs: number) =>
      (
        await finalOf(
          await taskCall("tools/call", {
            name: "scan_repo",
            arguments: { repo: "acme/app", files, file_ms: fileMs },
          }),
        )
      ).result.taskId as string;
    const task = async (taskId: string) =>
      (await finalOf(await taskCall("tasks/get", { taskId }))).result;

    const completed = await scan(3, 10);
    const before = await eventually(
      async () => {
        const state = await task(completed);
        return state.status === "completed" ? state : undefined;
      },
      { intervalMs: 100, what: "the first task to complete" },
    );
    const cancelled = await scan(500, 20);
    expect(
      (await finalOf(await taskCall("tasks/cancel", { taskId: cancelled }))).result,
    ).toMatchObject({
      resultType: "complete",
    });
    // Still running when the host dies: 60 files of 50 ms.
    const running = await scan(60, 50);

    const listen = await send(
      cluster.url,
      "notes",
      "subscriptions/listen",
      { notifications: { resourceSubscriptions: ["notes://note-3"] } },
      alice,
    );
    const stream = reader(listen);
    expect((await stream.next())?.method).toBe("notifications/subscriptions/acknowledged");

    const killedAt = Date.now();
    cluster.killHost();
    const ended = await stream.next(10_000).then(
      (message) => message === undefined,
      (error: unknown) => !String(error).includes("no message in"),
    );
    console.log(`listen stream ended ${Date.now() - killedAt} ms after the host was killed`);
    expect(ended).toBe(true);

    // Every request counts against the caller's rates first: with the limiter gone, each is
    // refused (fail closed), with words that say to come back, and nothing of the cause.
    for (const sent of [
      await taskCall("tasks/get", { taskId: completed }),
      await send(
        cluster.url,
        "everything",
        "tools/call",
        { name: "add_numbers", arguments: { a: 1, b: 2 } },
        alice,
      ),
    ]) {
      expect(sent.response.status).toBe(503);
      const refusal = await finalOf(sent);
      expect(refusal.error).toEqual({
        code: -32603,
        message: "The rate limiter is unavailable right now. Try again shortly.",
      });
    }

    const restartedAt = Date.now();
    await cluster.restartHost();
    const back = await eventually(
      async () => {
        const sent = await taskCall("tasks/get", { taskId: completed });
        if (sent.response.status !== 200) {
          await sent.response.body?.cancel();
          return undefined;
        }
        return (await finalOf(sent)).result;
      },
      { intervalMs: 100, timeoutMs: 10_000, what: "the restarted host to answer" },
    );
    console.log(
      `host restarted in ${Date.now() - restartedAt} ms (process start included); tasks answered at once`,
    );
    // The completed task, its result and all, as it was.
    expect(back).toEqual({ ...before, _meta: back._meta });
    expect((await task(cancelled)).status).toBe("cancelled");
    // The task whose run the kill cut short runs again (its alarm fires again) and completes:
    // a task's work is done at least once, so a tool run as a task must bear running twice.
    const rerun = await eventually(
      async () => {
        const state = await task(running);
        return state.status === "working" ? undefined : state;
      },
      { intervalMs: 200, timeoutMs: 20_000, what: "the interrupted task to finish" },
    );
    expect(rerun.status).toBe("completed");
    expect(rerun.result.structuredContent).toMatchObject({ repo: "acme/app", scanned: 60 });

    // The client listens again; every change after its acknowledgement reaches it.
    const again = reader(
      await send(
        cluster.url,
        "notes",
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["notes://note-3"] } },
        alice,
      ),
    );
    expect((await again.next())?.method).toBe("notifications/subscriptions/acknowledged");
    for (const body of ["After the restart.", "And once more."]) {
      const edit = await send(
        cluster.url,
        "notes",
        "tools/call",
        { name: "edit_note", arguments: { id: 3, body } },
        alice,
      );
      expect((await finalOf(edit)).result.content[0].text).toBe("Updated note 3.");
      expect(await again.next()).toMatchObject({
        method: "notifications/resources/updated",
        params: { uri: "notes://note-3" },
      });
    }
    await again.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "./cluster.ts";
import { SERVED_BY } from "./front.ts";
import { clusterBindings, TOKENS } from "./fixtures.ts";
import { finalOf, reader, send } from "./wire.ts";

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ workers: 2, bindings: clusterBindings() });
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
  it("a Worker process killed during a call: the client gets a clean error, a retry through the front succeeds on the other process", async () => {
    const target = await nextInTurn();
    const pending = counter(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const killedAt = Date.now();
    cluster.kill(target - 1);
    const broken = await pending;
    console.log(
      `call on a killed process: HTTP ${broken.response.status} ${Date.now() - killedAt} ms after the kill`,
    );
    expect(broken.response.status).toBe(502);
    expect(await broken.response.text()).toBe("Bad gateway\n");

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

  it("the Durable Object host killed: a listen stream held through it ends at once", async () => {
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
  });
});

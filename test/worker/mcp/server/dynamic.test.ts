import { describe, expect, it } from "vitest";
import { DynamicServer } from "../../../../worker/mcp/index.ts";
describe("a dynamic server's catalog", () => {
  const background: Promise<unknown>[] = [];
  const context = {
    env: {} as Cloudflare.Env,
    waitUntil: (promise: Promise<unknown>) => void background.push(promise),
  };
  /** A server whose loads are counted, and fail while `state.fail` is set. */
  const counted = (ttlMs: number, hold?: (load: number) => Promise<void> | undefined) => {
    const state = { loads: 0, fail: false };
    const server = new DynamicServer("dyn", async () => {
      const load = ++state.loads;
      await hold?.(load);
      if (state.fail) throw new Error("upstreams down");
      return { definition: { name: "dyn", version: `${load}` }, ttlMs };
    });
    return { server, state };
  };

  it("keeps serving the last good catalog when the reload after an invalidation fails", async () => {
    const { server, state } = counted(60_000);
    const first = await server.catalogFor(context);
    state.fail = true;
    server.invalidate();
    expect(await server.catalogFor(context)).toBe(first);
    expect(state.loads).toBe(2);
  });

  it("tries a failed reload again a short while later, not on every request", async () => {
    const { server, state } = counted(0);
    const first = await server.catalogFor(context);
    state.fail = true;
    expect(await server.catalogFor(context)).toBe(first);
    expect(await server.catalogFor(context)).toBe(first);
    expect(state.loads).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    state.fail = false;
    expect(await server.catalogFor(context)).toBe(first); // while the reload runs
    await Promise.all(background);
    expect(state.loads).toBe(3);
    expect(await server.catalogFor(context)).not.toBe(first);
  });

  it("serves a catalog past its time while the next one loads, without waiting for it", async () => {
    let release = () => {};
    const { server, state } = counted(0, (load) =>
      load === 2 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    );
    const first = await server.catalogFor(context);
    expect(await server.catalogFor(context)).toBe(first);
    expect(await server.catalogFor(context)).toBe(first);
    expect(state.loads).toBe(2);
    release();
    await Promise.all(background);
    expect((await server.catalogFor(context)).serverInfo.version).toBe("2");
  });

  it("does not keep a load that an invalidation overtook", async () => {
    let release = () => {};
    const { server, state } = counted(60_000, (load) =>
      load === 2 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    );
    await server.catalogFor(context);
    server.invalidate();
    const overtaken = server.catalogFor(context);
    server.invalidate();
    const fresh = server.catalogFor(context);
    release();
    await overtaken;
    const latest = await fresh;
    expect(state.loads).toBe(3);
    expect(await server.catalogFor(context)).toBe(latest);
    expect(state.loads).toBe(3);
  });
});

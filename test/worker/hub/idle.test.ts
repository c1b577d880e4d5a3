import { describe, expect, it } from "vitest";
import { idleTimeout } from "../../../worker/hub/forward.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("idleTimeout", () => {
  it("aborts with the call's reason when the call aborts", () => {
    const call = new AbortController();
    const idle = idleTimeout(10_000, call.signal);
    expect(idle.signal.aborted).toBe(false);
    call.abort(new Error("client left"));
    expect(idle.signal.aborted).toBe(true);
    expect(String(idle.signal.reason)).toBe("Error: client left");
    idle.stop();
  });

  it("is aborted from the start when the call already is", () => {
    const call = new AbortController();
    call.abort(new Error("gone before"));
    const idle = idleTimeout(10_000, call.signal);
    expect(String(idle.signal.reason)).toBe("Error: gone before");
    idle.stop();
  });

  it("aborts once the upstream has been quiet for the whole time, and touching restarts it", async () => {
    const idle = idleTimeout(60, new AbortController().signal);
    await wait(40);
    idle.touch();
    await wait(40);
    expect(idle.signal.aborted).toBe(false);
    await wait(60);
    expect(idle.signal.aborted).toBe(true);
    expect(String(idle.signal.reason)).toMatch(/no answer within/);
    idle.stop();
  });

  it("does not fire while resting, and stop unlinks it from the call", async () => {
    const call = new AbortController();
    const idle = idleTimeout(30, call.signal);
    idle.rest();
    await wait(80);
    expect(idle.signal.aborted).toBe(false);
    // Resting keeps the link: the call still reaches it.
    const other = new AbortController();
    const linked = idleTimeout(30, other.signal);
    linked.rest();
    other.abort(new Error("left while resting"));
    expect(String(linked.signal.reason)).toBe("Error: left while resting");
    linked.stop();
    // Stopped: neither the timer nor the call aborts it any more.
    idle.stop();
    call.abort(new Error("too late"));
    await wait(50);
    expect(idle.signal.aborted).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import * as z from "zod";
import { SealedHandles } from "../../../worker/state/handles.ts";
import { keyringFrom, MissingSecretError } from "../../../worker/state/keyring.ts";
import { HandleError, Sealer } from "../../../worker/state/sealer.ts";

const SECRET = "a".repeat(32) + "-first-secret";
const NEW_SECRET = "b".repeat(32) + "-rotated-secret";

async function sealer(secret = SECRET, previous?: string, now?: () => number) {
  return new Sealer(await keyringFrom(secret, previous), now);
}

async function refusal(promise: Promise<unknown>): Promise<HandleError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HandleError))
    throw new Error(`expected a HandleError, got ${String(error)}`);
  return error;
}

describe("sealed handles", () => {
  it("round-trip data for the same purpose and caller", async () => {
    const s = await sealer();
    const handle = await s.seal("basket", "alice", { items: [1, 2] }, 60_000);
    expect(await s.open("basket", "alice", handle)).toEqual({ items: [1, 2] });
  });

  it("are compact base64url without padding", async () => {
    const handle = await (
      await sealer()
    ).seal("cursor", "", { l: "tools", i: 2, f: "abc123" }, 3_600_000);
    expect(handle).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(handle.length).toBeLessThan(150);
  });

  it("refuse any change to a single character", async () => {
    const s = await sealer();
    const handle = await s.seal("basket", "alice", { n: 1 }, 60_000);
    // Not the last character: it may carry unused bits, so a flip there can leave the bytes as
    // they were. The one before it is all data (here, the authentication tag).
    for (const position of [0, 3, 10, handle.length - 2]) {
      const flipped =
        handle.slice(0, position) +
        (handle[position] === "A" ? "B" : "A") +
        handle.slice(position + 1);
      expect((await refusal(s.open("basket", "alice", flipped))).problem).toBe("invalid");
    }
    expect((await refusal(s.open("basket", "alice", handle.slice(0, -4)))).problem).toBe("invalid");
    expect((await refusal(s.open("basket", "alice", "not a handle!"))).problem).toBe("invalid");
  });

  it("refuse another purpose, naming both", async () => {
    const s = await sealer();
    const handle = await s.seal("cursor", "alice", {}, 60_000);
    const error = await refusal(s.open("basket", "alice", handle));
    expect(error).toMatchObject({
      problem: "purpose",
      message: "This handle was made for cursor, not for basket; pass the basket handle here.",
    });
  });

  it("refuse another caller", async () => {
    const s = await sealer();
    const handle = await s.seal("basket", "alice", {}, 60_000);
    expect((await refusal(s.open("basket", "bob", handle))).problem).toBe("caller");
    expect((await refusal(s.open("basket", "", handle))).problem).toBe("caller");
  });

  it("refuse an expired handle, saying how long ago and what to do", async () => {
    let now = Date.parse("2026-11-01T00:00:00Z");
    const s = await sealer(SECRET, undefined, () => now);
    const handle = await s.seal("analysis", "", {}, 15 * 60_000);
    now += 18 * 60_000;
    const error = await refusal(s.open("analysis", "", handle, "Call open_analysis again."));
    expect(error).toMatchObject({
      problem: "expired",
      message: "This analysis handle expired 3 minutes ago. Call open_analysis again.",
    });
  });

  it("still open after a key rotation, while new handles use the new key", async () => {
    const old = await (await sealer()).seal("basket", "alice", { v: 1 }, 60_000);
    const rotated = await sealer(NEW_SECRET, SECRET);
    expect(await rotated.open("basket", "alice", old)).toEqual({ v: 1 });
    const fresh = await rotated.seal("basket", "alice", { v: 2 }, 60_000);
    expect((await refusal((await sealer()).open("basket", "alice", fresh))).problem).toBe(
      "invalid",
    );
    expect((await refusal((await sealer(NEW_SECRET)).open("basket", "alice", old))).problem).toBe(
      "invalid",
    );
  });

  it("parse their data with a schema in ctx.handles", async () => {
    const handles = new SealedHandles(await sealer(), "alice");
    const handle = await handles.seal("pair", { a: 1 });
    await expect(
      handles.open("pair", handle, { schema: z.object({ a: z.number() }) }),
    ).resolves.toEqual({ a: 1 });
    await expect(
      handles.open("pair", handle, { schema: z.object({ b: z.string() }) }),
    ).rejects.toThrow(/unexpected shape/);
  });

  it("cannot be made without a long enough secret", async () => {
    await expect(keyringFrom(undefined, undefined)).rejects.toThrow(MissingSecretError);
    await expect(keyringFrom("short", undefined)).rejects.toThrow(/at least 32 characters/);
  });
});

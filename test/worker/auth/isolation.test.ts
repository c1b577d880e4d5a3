import { describe, expect, it } from "vitest";
import { cancellationKey } from "../../../worker/mcp/call/calling.ts";
import { handleOwner, SealedHandles } from "../../../worker/state/handles.ts";
import { keyringFrom } from "../../../worker/state/keyring.ts";
import { HandleError, Sealer } from "../../../worker/state/sealer.ts";
import { TEST_SECRETS } from "../../support/secrets.ts";
import { call } from "../call.ts";

const sealer = async () => new Sealer(await keyringFrom(TEST_SECRETS.EDGEMCP_SECRET, undefined));
const ALICE = { Authorization: "Bearer token-alice" };
const BOB = { Authorization: "Bearer token-bob" };

describe("handles are bound to the caller and the server", () => {
  it("refuses another caller's handle without saying what it was for", async () => {
    const s = await sealer();
    const handle = await s.seal("payroll-export", handleOwner("notes", "alice"), { n: 1 }, 60_000);
    const refusal = s.open("cursor", handleOwner("notes", "bob"), handle);
    await expect(refusal).rejects.toThrow(HandleError);
    await expect(refusal).rejects.toThrow("This cursor handle belongs to another caller.");
    await expect(s.open("cursor", handleOwner("notes", "bob"), handle)).rejects.not.toThrow(
      /payroll/,
    );
  });

  it("refuses a handle another server of the deployment sealed for the same caller", async () => {
    const s = await sealer();
    const notes = new SealedHandles(s, handleOwner("edgemcp-notes", "alice"));
    const analytics = new SealedHandles(s, handleOwner("edgemcp-analytics", "alice"));
    const handle = await notes.seal("analysis", { q: 1 });
    await expect(analytics.open("analysis", handle)).rejects.toThrow(/another caller/);
    await expect(notes.open("analysis", handle)).resolves.toEqual({ q: 1 });
  });

  it("refuses alice's analysis handle to bob, and to anonymous callers, on the running Worker", async () => {
    const opened = await call(
      "tools/call",
      { name: "open_analysis", arguments: {} },
      { server: "analytics", headers: ALICE },
    );
    const handle: string = opened.final?.result.structuredContent.analysis;
    const summary = (headers: Record<string, string>) =>
      call(
        "tools/call",
        { name: "analysis_summary", arguments: { analysis: handle } },
        { server: "analytics", headers },
      );
    for (const headers of [BOB, {}]) {
      const refused = await summary(headers);
      expect(refused.final?.result.isError).toBe(true);
      expect(refused.final?.result.content[0].text).toMatch(/belongs to another caller/);
    }
    expect((await summary(ALICE)).final?.result.isError).toBeFalsy();
  });
});

describe("cancellation keys", () => {
  it("differ per server and per caller, so a cancel reaches only the caller's own call", () => {
    const headers = new Headers({ "CF-Connecting-IP": "203.0.113.7" });
    const alice = { subject: "alice" };
    const key = (server: string, caller?: { subject: string }, session?: string) =>
      cancellationKey(server, caller, headers, session);
    expect(key("notes", alice)).not.toBe(key("ops", alice));
    expect(key("notes", alice)).not.toBe(key("notes", { subject: "bob" }));
    expect(key("notes", undefined, "s1")).not.toBe(key("ops", undefined, "s1"));
  });

  it("tell a subject's sessions apart, and its calls without a session from both", () => {
    const headers = new Headers({ "CF-Connecting-IP": "203.0.113.7" });
    const alice = { subject: "alice" };
    const keys = [
      cancellationKey("notes", alice, headers, "s1"),
      cancellationKey("notes", alice, headers, "s2"),
      cancellationKey("notes", alice, headers, undefined),
      cancellationKey("notes", { subject: "bob" }, headers, "s1"),
      cancellationKey("notes", undefined, headers, "s1"),
    ];
    expect(keys.every((key) => key !== undefined)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("tell anonymous callers behind one address apart by session id, and give none without one", () => {
    const headers = new Headers({ "CF-Connecting-IP": "203.0.113.7" });
    expect(cancellationKey("notes", undefined, headers, "s1")).not.toBe(
      cancellationKey("notes", undefined, headers, "s2"),
    );
    expect(cancellationKey("notes", undefined, headers, undefined)).toBeUndefined();
  });
});

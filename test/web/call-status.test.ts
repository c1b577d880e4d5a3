import { describe, expect, it } from "vitest";
import { callState } from "../../web/src/lib/call-status.ts";

describe("a call's status line", () => {
  it("reads as its task's state while the task it became is not done", () => {
    expect(callState("done", "working")).toEqual({ label: "Task working", tone: "running" });
    expect(callState("done", "input_required")).toEqual({
      label: "Task waiting for input",
      tone: "running",
    });
    expect(callState("done", "failed")).toEqual({ label: "Task failed", tone: "failed" });
    expect(callState("done", "cancelled")).toEqual({ label: "Task cancelled", tone: "cancelled" });
    expect(callState("done", "completed")).toEqual({ label: "Done", tone: "done" });
  });

  it("says how a call without a task ended", () => {
    expect(callState("running")).toEqual({ label: "Running", tone: "running" });
    expect(callState("done")).toEqual({ label: "Done", tone: "done" });
    expect(callState("timeout")).toEqual({ label: "Timed out", tone: "timeout" });
    expect(callState("cancelled")).toEqual({ label: "Cancelled", tone: "cancelled" });
    expect(callState("failed", "working")).toEqual({ label: "Failed", tone: "failed" });
  });
});

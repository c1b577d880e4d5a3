import { describe, expect, it } from "vitest";
import {
  ABORTS_REMEMBERED,
  abortOf,
  recordAbort,
} from "../../../worker/servers/everything/aborts.ts";
import { call } from "../call.ts";

describe("the slow counter's aborted labels", () => {
  it("are remembered up to a bound, the oldest forgotten first", () => {
    recordAbort("first", 1);
    recordAbort("second", 2);
    recordAbort("first", 3); // noted again: now the newest
    for (let i = 0; i < ABORTS_REMEMBERED - 1; i++) recordAbort(`label-${i}`, 1);
    expect(abortOf("second")).toBeUndefined();
    expect(abortOf("first")).toMatchObject({ step: 3 });
    expect(abortOf(`label-${ABORTS_REMEMBERED - 2}`)).toMatchObject({ step: 1 });
  });

  it("refuses a label longer than 200 characters", async () => {
    const { final } = await call(
      "tools/call",
      { name: "test_abort_status", arguments: { label: "x".repeat(201) } },
      { server: "everything" },
    );
    expect(final?.result.isError).toBe(true);
    expect(final?.result.content[0].text).toMatch(/^Invalid arguments: arguments\.label/);
  });
});

import { describe, expect, it } from "vitest";
import {
  BARE,
  baselines,
  EDGEMCP,
  HONO,
  HUB,
  roundOrder,
  SAME_BYTES,
  SDK,
  TMCP,
} from "./contenders.ts";
import { SCENARIOS, withBaselines } from "./scenarios.ts";

const ids = (entries: { contender: { id: string } }[]) => entries.map((e) => e.contender.id);
const served = (scenarioId: string) => {
  const scenario = SCENARIOS.find((s) => s.id === scenarioId);
  if (!scenario) throw new Error(`no scenario ${scenarioId}`);
  return scenario.contenders.map((contender) => ({ contender }));
};

describe("the order of a round's runs", () => {
  it("runs the subject between the bare Worker and the same-bytes anchor, both ways", () => {
    const list = served("list-1000");
    expect(ids(roundOrder(list, 1))).toEqual([
      "hono",
      "sdk",
      "tmcp",
      "bare",
      "edgemcp",
      "bare-bytes",
    ]);
    expect(ids(roundOrder(list, 2))).toEqual([
      "bare-bytes",
      "edgemcp",
      "bare",
      "tmcp",
      "sdk",
      "hono",
    ]);
    expect(ids(roundOrder(list, 3))).toEqual(ids(roundOrder(list, 1)));
  });

  it("runs the subject next to the bare Worker where there is no same-bytes anchor, the hub too", () => {
    for (const id of ["echo", "echo-2025", "hub"]) {
      for (const round of [1, 2]) {
        const order = ids(roundOrder(served(id), round));
        const subject = order.indexOf(id === "hub" ? HUB.id : EDGEMCP.id);
        expect(Math.abs(order.indexOf(BARE.id) - subject)).toBe(1);
        expect(order).toHaveLength(served(id).length);
      }
    }
  });

  it("keeps the others in the scenario's order and leaves the list it is given alone", () => {
    const given = [SAME_BYTES, EDGEMCP, TMCP, BARE, SDK, HONO].map((contender) => ({ contender }));
    const before = ids(given);
    expect(ids(roundOrder(given, 1))).toEqual([
      "tmcp",
      "sdk",
      "hono",
      "bare",
      "edgemcp",
      "bare-bytes",
    ]);
    expect(ids(given)).toEqual(before);
  });

  it("puts a baseline with the others, before the bare Worker", () => {
    const checkout = { root: "/tmp/before", commit: "abc1234", changed: false };
    const [baseline] = baselines(checkout, ["edgemcp"]);
    const scenario = SCENARIOS.find((s) => s.id === "echo")!;
    const order = ids(
      roundOrder(
        withBaselines(scenario, [baseline!]).contenders.map((contender) => ({ contender })),
        1,
      ),
    );
    expect(order.slice(-3)).toEqual([baseline!.id, "bare", "edgemcp"]);
  });
});

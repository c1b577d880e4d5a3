import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { baselineCheckout, readOptions } from "./options.ts";
import { ROOT } from "./paths.ts";
import { roundsOf, SCENARIOS } from "./scenarios.ts";

const scratch = mkdtempSync(join(tmpdir(), "bench-options-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** A fresh git repository under the scratch folder, with the given files. */
function repository(name: string, files: string[]): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  execFileSync("git", ["init", "-q"], { cwd: dir });
  for (const file of files) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), "");
  }
  return dir;
}

describe("BENCH_BASELINE", () => {
  it("is no baseline when unset or empty", () => {
    expect(baselineCheckout(undefined)).toBeUndefined();
    expect(baselineCheckout("")).toBeUndefined();
  });

  it("takes the root of a checkout of this repository, with its short commit", () => {
    const checkout = baselineCheckout(ROOT);
    expect(checkout?.root).toBe(resolve(ROOT));
    expect(checkout?.commit).toMatch(/^[0-9a-f]{7,}$/);
    expect(checkout?.commit).toBe(
      execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim(),
    );
  });

  it("refuses a missing path and a file", () => {
    expect(() => baselineCheckout(join(scratch, "nowhere"))).toThrow(
      `BENCH_BASELINE=${join(scratch, "nowhere")}: no such folder.`,
    );
    const file = join(scratch, "file");
    writeFileSync(file, "");
    expect(() => baselineCheckout(file)).toThrow("not a folder");
  });

  it("refuses a folder that is not a git checkout", () => {
    const plain = join(scratch, "plain");
    mkdirSync(plain);
    expect(() => baselineCheckout(plain)).toThrow("not a git checkout");
  });

  it("refuses a folder inside a checkout, naming the checkout's root", () => {
    expect(() => baselineCheckout(join(ROOT, "test/bench"))).toThrow(
      /not the root of its checkout \(that is .+\)/,
    );
  });

  it("refuses a repository without the edgemcp bench Worker, or without node_modules", () => {
    expect(() => baselineCheckout(repository("other", ["README.md"]))).toThrow(
      "not a checkout of edgemcp's bench",
    );
    const bare = repository("no-modules", ["test/bench/workers/edgemcp/wrangler.toml"]);
    expect(() => baselineCheckout(bare)).toThrow("no node_modules (link this checkout's: ln -s");
  });

  it("is refused by readOptions at the start of a run", () => {
    vi.stubEnv("BENCH_BASELINE", join(scratch, "nowhere"));
    expect(() => readOptions()).toThrow("BENCH_BASELINE=");
    vi.stubEnv("BENCH_BASELINE", ROOT);
    expect(readOptions().baseline?.root).toBe(resolve(ROOT));
  });
});

describe("run lengths", () => {
  it("defaults to many short rounds, with the full warm-up before a server's first run only", () => {
    const options = readOptions();
    expect(options.rounds).toBe(21);
    expect(options.seconds).toBe(0.3);
    expect(options.warmupSeconds).toBe(0.5);
    expect(options.rewarmSeconds).toBe(0.2);
    expect(options.coldRuns).toBe(41);
  });

  it("never wakes a warm server for longer than the warm-up asked for", () => {
    vi.stubEnv("BENCH_WARMUP_SECONDS", "0.1");
    expect(readOptions().rewarmSeconds).toBe(0.1);
    vi.stubEnv("BENCH_WARMUP_SECONDS", "2");
    expect(readOptions().rewarmSeconds).toBe(0.2);
  });

  it("keeps the quick mode one variable away", () => {
    vi.stubEnv("BENCH_QUICK", "1");
    const options = readOptions();
    expect([options.rounds, options.seconds, options.warmupSeconds, options.coldRuns]).toEqual([
      1, 0.5, 0.2, 9,
    ]);
  });
});

describe("rounds per scenario", () => {
  it("gives the hub twice the rounds of a run and every other scenario the run's own", () => {
    const rounds = Object.fromEntries(SCENARIOS.map((s) => [s.id, roundsOf(s, 21)]));
    expect(rounds["hub"]).toBe(42);
    expect(rounds["echo"]).toBe(21);
    expect(Object.values(rounds).filter((n) => n !== 21)).toEqual([42]);
  });
});

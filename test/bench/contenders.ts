/** The two MCP wires a scenario may speak: 2026-07-28 per-request, or 2025 after `initialize`. */
export type Era = "2026" | "2025";

/** Another checkout of this repository (BENCH_BASELINE): its root folder and its commit. */
export type Checkout = { root: string; commit: string; changed: boolean };

/**
 * A Worker under test: its folder under test/bench/workers, and what it is. `anchor` Workers are
 * not MCP servers (they answer fixed bytes: the limit of the stack); `peer` Workers are other MCP
 * servers edgemcp is compared with; `subject` Workers are edgemcp's own; a `baseline` Worker is a
 * subject as built from another checkout (BENCH_BASELINE), shown beside the current one.
 */
export type Contender = {
  /** Its key in samples, sizes, cold starts and build folders (a current Worker's folder name). */
  id: string;
  label: string;
  role: "anchor" | "peer" | "subject" | "baseline";
  /** The eras an MCP server serves (empty for anchors). */
  eras: Era[];
  /** Whether it can front other servers under prefixed names (the hub scenario). */
  hub?: boolean;
  /** A baseline's origin: the subject it is an earlier version of, and the checkout it comes from. */
  baseline?: { of: string; checkout: Checkout };
};

export const BARE: Contender = { id: "bare", label: "bare Worker", role: "anchor", eras: [] };
export const HONO: Contender = { id: "hono", label: "Hono", role: "anchor", eras: [] };
/**
 * A bare Worker answering exactly the bytes edgemcp answers (taken from edgemcp before load and
 * checked byte for byte): the anchor of the stream, big-result and long-list scenarios.
 */
export const SAME_BYTES: Contender = {
  id: "bare-bytes",
  label: "bare Worker, edgemcp's bytes",
  role: "anchor",
  eras: [],
};
export const SDK: Contender = {
  id: "sdk",
  label: "SDK 2.4.0",
  role: "peer",
  eras: ["2026", "2025"],
};
export const MCP_LITE: Contender = {
  id: "mcp-lite",
  label: "mcp-lite 0.10",
  role: "peer",
  eras: ["2025"],
};
export const TMCP: Contender = {
  id: "tmcp",
  label: "tmcp 1.20",
  role: "peer",
  eras: ["2026", "2025"],
};
export const EDGEMCP: Contender = {
  id: "edgemcp",
  label: "edgemcp",
  role: "subject",
  eras: ["2026", "2025"],
};
/** The hub in front of the edgemcp server, mounted in the same Worker: the hub scenario only. */
export const HUB: Contender = {
  id: "hub",
  label: "edgemcp hub → edgemcp",
  role: "subject",
  eras: ["2026", "2025"],
  hub: true,
};

/** The other MCP servers, shown beside edgemcp in every row (or with why they sit one out). */
export const PEERS: Contender[] = [SDK, MCP_LITE, TMCP];

/** One-tool servers, built only to compare bundle sizes and cold starts. */
export const HELLO_WORKERS: Contender[] = [
  { id: "hello-sdk", label: "hello SDK", role: "peer", eras: ["2026", "2025"] },
  { id: "hello-mcp-lite", label: "hello mcp-lite (zod/mini)", role: "peer", eras: ["2025"] },
  { id: "hello-tmcp", label: "hello tmcp", role: "peer", eras: ["2026", "2025"] },
  { id: "hello-edgemcp", label: "hello edgemcp (zod/mini)", role: "subject", eras: ["2026"] },
  {
    id: "hello-edgemcp-classic",
    label: "hello edgemcp (classic zod)",
    role: "subject",
    eras: ["2026"],
  },
];

/** Every Worker served under load, in the order of odd rounds (anchors first). */
export const LOAD_WORKERS: Contender[] = [
  BARE,
  HONO,
  SAME_BYTES,
  SDK,
  MCP_LITE,
  TMCP,
  EDGEMCP,
  HUB,
];

export const ALL_WORKERS: Contender[] = [...LOAD_WORKERS, ...HELLO_WORKERS];

export const isMcp = (contender: Contender): boolean => contender.role !== "anchor";

/** The folder of its Worker under test/bench/workers (of its own checkout). */
export const folderOf = (contender: Contender): string => contender.baseline?.of ?? contender.id;

/** The subjects as built from another checkout: those of `folders` (the Workers it has). */
export function baselines(checkout: Checkout, folders: string[]): Contender[] {
  return ALL_WORKERS.filter((w) => w.role === "subject" && folders.includes(w.id)).map((w) => ({
    ...w,
    id: `baseline-${w.id}`,
    label: `${w.label} (baseline ${checkout.commit})`,
    role: "baseline",
    baseline: { of: w.id, checkout },
  }));
}

/**
 * The order of one round's runs: everything else first (Hono, the peers, any baseline), then
 * the bare Worker, the subject, and the same-bytes anchor; even rounds run it backwards. The
 * subject's target ratios divide it by the bare Worker or the same-bytes anchor within a round,
 * so it runs next to both either way: a spell of the machine running slower (other work, a
 * busy host) then slows both sides of a ratio, where runs a dozen seconds apart would see it
 * hit one side only.
 */
export function roundOrder<T extends { contender: Contender }>(served: T[], round: number): T[] {
  const rank = ({ contender }: T) =>
    contender === BARE ? 1 : contender.role === "subject" ? 2 : contender === SAME_BYTES ? 3 : 0;
  const order = served
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
  return round % 2 === 1 ? order : order.reverse();
}

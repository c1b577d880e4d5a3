/** A Worker under test: its folder under test/bench/workers and whether it speaks MCP. */
export type Contender = { id: string; label: string; mcp: boolean };

/** The servers of every scenario but the hub's (see HUB), in the order of odd rounds. */
export const CONTENDERS: Contender[] = [
  { id: "bare", label: "bare Worker", mcp: false },
  { id: "hono", label: "Hono", mcp: false },
  { id: "sdk", label: "SDK 2.4.0", mcp: true },
  { id: "edgemcp", label: "edgemcp", mcp: true },
];

/** One-tool servers, built only to compare bundle sizes and cold starts. */
export const HELLO_WORKERS: Contender[] = [
  { id: "hello-sdk", label: "hello SDK", mcp: true },
  { id: "hello-edgemcp", label: "hello edgemcp (zod/mini)", mcp: true },
  { id: "hello-edgemcp-classic", label: "hello edgemcp (classic zod)", mcp: true },
];

/** The hub in front of the edgemcp server, mounted in the same Worker: the hub scenario only. */
export const HUB: Contender = { id: "hub", label: "edgemcp hub → edgemcp", mcp: true };

export const ALL_WORKERS = [...CONTENDERS, HUB, ...HELLO_WORKERS];

import {
  BIG_TEXT_BYTES,
  ECHO_TEXT,
  FIXED_TOOLS,
  generatedToolName,
  PROGRESS_STEPS,
  RESOURCE_TEXT,
  RESOURCE_URI,
} from "./workers/fixtures.ts";
import {
  BARE,
  EDGEMCP,
  HONO,
  HUB,
  PEERS,
  SAME_BYTES,
  type Contender,
  type Era,
} from "./contenders.ts";
import type { Message, Reply } from "./reply.ts";
import type { RequestSpec } from "./wire.ts";

/** What every counted answer must show during load: cheap substring and size checks. */
export type LoadCheck = {
  minBytes: number;
  maxBytes: number;
  contains: string[];
  absent: string[];
  /** Substrings that must occur exactly this many times. */
  counts: { needle: string; times: number }[];
};

/** One workload, sent unchanged to every server. */
export type Scenario = {
  id: string;
  label: string;
  /** Generated no-op tools the MCP servers register (besides the fixed three). */
  tools: number;
  /** The wire: 2026-07-28 per-request, or 2025 after an `initialize` handshake. */
  era: Era;
  /** The Workers that serve it, in the order of odd rounds. */
  contenders: Contender[];
  /** The peers that sit it out, and why. */
  absent: { contender: Contender; reason: string }[];
  request: RequestSpec;
  /** The MCP answer is an SSE stream (progress before the result). */
  stream: boolean;
  load: LoadCheck;
  /** Checks the final result of an MCP answer in depth; returns what is wrong. */
  verify(reply: Reply): string | undefined;
  /**
   * Rounds of this scenario per round of the others (default 1): the hub's single rounds
   * spread twice as widely as echo's (0.25–0.63 ÷ bare at c=1), so its median needs more.
   */
  roundsScale?: number;
};

const RESULT = ['"jsonrpc":"2.0"', '"result":'];
const NO_ERROR = ['"error":'];

function textOf(final: Message | undefined): unknown {
  return final?.result?.content?.[0]?.text;
}

type Shape = { era?: Era; hub?: boolean; sameBytes?: boolean };

/**
 * Who serves a scenario: the anchors (bare and Hono, and a bare Worker answering edgemcp's own
 * bytes where the answer is big or streamed), the peers that serve its era, and edgemcp (or its
 * hub). The peers that cannot serve it are listed with the reason.
 */
function cast({ era = "2026", hub = false, sameBytes = false }: Shape) {
  const absent: Scenario["absent"] = [];
  const peers: Contender[] = [];
  for (const peer of PEERS) {
    if (hub) absent.push({ contender: peer, reason: "no hub" });
    else if (!peer.eras.includes(era))
      absent.push({ contender: peer, reason: `${peer.eras.join(", ")} era only` });
    else peers.push(peer);
  }
  const anchors = sameBytes ? [BARE, HONO, SAME_BYTES] : [BARE, HONO];
  return { era, absent, contenders: [...anchors, ...peers, hub ? HUB : EDGEMCP] };
}

function echo(
  id: string,
  label: string,
  tools: number,
  name = "echo",
  shape: Shape = {},
): Scenario {
  return {
    id,
    label,
    tools,
    ...cast(shape),
    request: {
      method: "tools/call",
      params: { name, arguments: { text: ECHO_TEXT } },
      name,
    },
    stream: false,
    load: {
      minBytes: 0,
      maxBytes: 4096,
      contains: [...RESULT, `"text":"${ECHO_TEXT}"`],
      absent: NO_ERROR,
      counts: [],
    },
    verify: ({ final }) =>
      textOf(final) === ECHO_TEXT ? undefined : "echo did not return its text",
  };
}

function list(tools: number): Scenario {
  const total = tools + FIXED_TOOLS;
  return {
    id: `list-${tools}`,
    label: `tools/list, ${tools} tools`,
    tools,
    ...cast({ sameBytes: true }),
    request: { method: "tools/list", params: {} },
    stream: false,
    load: {
      minBytes: 0,
      maxBytes: Infinity,
      contains: [...RESULT, `"name":"${generatedToolName(tools - 1)}"`],
      absent: [...NO_ERROR, '"nextCursor"'],
      counts: [{ needle: '"name":"tool_', times: tools }],
    },
    verify: ({ final }) => {
      const listed: unknown = final?.result?.tools;
      if (!Array.isArray(listed) || listed.length !== total)
        return `expected ${total} tools in one page`;
      if (final?.result?.nextCursor !== undefined) return "expected no nextCursor";
      return undefined;
    },
  };
}

const progress: Scenario = {
  id: "progress",
  label: `tools/call, ${PROGRESS_STEPS} progress (SSE)`,
  tools: 1,
  ...cast({ sameBytes: true }),
  request: {
    method: "tools/call",
    params: { name: "progress", arguments: { steps: PROGRESS_STEPS } },
    name: "progress",
    progressToken: "bench-progress",
  },
  stream: true,
  load: {
    minBytes: 0,
    maxBytes: 64 * 1024,
    contains: [...RESULT, `"text":"did ${PROGRESS_STEPS}"`],
    absent: NO_ERROR,
    counts: [{ needle: '"method":"notifications/progress"', times: PROGRESS_STEPS }],
  },
  verify: ({ messages, final }) => {
    const steps = messages.filter((m) => m.method === "notifications/progress");
    const ok = steps.every(
      (m, i) => m.params?.progressToken === "bench-progress" && m.params?.progress === i + 1,
    );
    if (steps.length !== PROGRESS_STEPS || !ok)
      return `expected progress 1..${PROGRESS_STEPS} with the request's token`;
    return textOf(final) === `did ${PROGRESS_STEPS}` ? undefined : "wrong final result";
  },
};

const big: Scenario = {
  id: "big",
  label: "tools/call, 1 MiB text",
  tools: 1,
  ...cast({ sameBytes: true }),
  request: { method: "tools/call", params: { name: "big", arguments: {} }, name: "big" },
  stream: false,
  load: {
    minBytes: BIG_TEXT_BYTES,
    maxBytes: BIG_TEXT_BYTES + 4096,
    contains: RESULT,
    absent: NO_ERROR,
    counts: [],
  },
  verify: ({ final }) => {
    const text = textOf(final);
    return typeof text === "string" && text.length === BIG_TEXT_BYTES
      ? undefined
      : "expected 1 MiB of text";
  },
};

const read: Scenario = {
  id: "read",
  label: "resources/read",
  tools: 1,
  ...cast({}),
  request: { method: "resources/read", params: { uri: RESOURCE_URI }, name: RESOURCE_URI },
  stream: false,
  load: {
    minBytes: 0,
    maxBytes: 4096,
    contains: [...RESULT, RESOURCE_TEXT],
    absent: NO_ERROR,
    counts: [],
  },
  verify: ({ final }) => {
    const entry = final?.result?.contents?.[0];
    return entry?.uri === RESOURCE_URI && entry?.text === RESOURCE_TEXT
      ? undefined
      : "wrong contents";
  },
};

export const SCENARIOS: Scenario[] = [
  echo("echo", "tools/call echo", 1),
  // The path of most desktop clients: initialize once, then calls with the negotiated version.
  echo("echo-2025", "2025 tools/call echo, after initialize", 1, "echo", { era: "2025" }),
  // Right after plain echo, so that the two are compared under the same machine load.
  echo("echo-1000", "tools/call echo, 1000 tools registered", 1000),
  list(10),
  list(100),
  list(1000),
  progress,
  big,
  read,
  // The SDK has no hub: the edgemcp row to compare with is plain echo's.
  {
    ...echo("hub", "hub: tools/call bench__echo, routed in-process", 1, "bench__echo", {
      hub: true,
    }),
    roundsScale: 2,
  },
];

/** How many rounds a scenario runs, given the rounds of a run. */
export function roundsOf(scenario: Scenario, rounds: number): number {
  return rounds * (scenario.roundsScale ?? 1);
}

/**
 * The scenario with the baselines of its subject (BENCH_BASELINE) listed after it, sent the same
 * wire; a baseline whose answer fails the scenario's check is reported, as a peer would be.
 */
export function withBaselines(scenario: Scenario, baselines: Contender[]): Scenario {
  const subjects = scenario.contenders.filter((c) => c.role === "subject").map((c) => c.id);
  const added = baselines.filter((b) => b.baseline && subjects.includes(b.baseline.of));
  return { ...scenario, contenders: [...scenario.contenders, ...added] };
}

/** What bare and Hono answer to any request: a small JSON-RPC result. */
export const BASELINE_CHECK: LoadCheck = {
  minBytes: 0,
  maxBytes: 1024,
  contains: RESULT,
  absent: NO_ERROR,
  counts: [],
};

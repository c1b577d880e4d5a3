// The cluster soak's workload: each operation a request (or a short exchange) through the front
// and its checks, the listen streams held on notes, and what they count for the report.
import { TOKENS } from "../cluster/fixtures.ts";
import { decodeSse } from "../../shared/sse.ts";
import { MODERN_VERSION } from "../../shared/protocol/versions.ts";
import { modernBody } from "../support/mcp-request.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
/** Time around a restart in which failures and lost notifications are the fault's effect. */
const WINDOW_BEFORE_MS = 1_000;
const WINDOW_AFTER_MS = 3_000;

type Message = { id?: unknown; method?: string; result?: Record<string, unknown>; error?: unknown };

/** Where the front listens, and when each restart began and ended (ms since the epoch). */
export const run = { base: "", windows: [] as { from: number; to: number }[] };
export const inWindow = (at: number) =>
  run.windows.some(({ from, to }) => at >= from - WINDOW_BEFORE_MS && at <= to + WINDOW_AFTER_MS);

export function post(
  path: string,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; meta?: Record<string, unknown> } = {},
  signal?: AbortSignal,
): Promise<Response> {
  const name = [params.name, params.taskId].find((value) => typeof value === "string");
  return fetch(`${run.base}/mcp${path}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${TOKENS.alice}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": MODERN_VERSION,
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
    },
    body: JSON.stringify(modernBody(method, params, options)),
    ...(signal ? { signal } : {}),
  });
}

async function messagesOf(response: Response): Promise<Message[]> {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const messages: Message[] = [];
  if ((response.headers.get("Content-Type") ?? "").startsWith("text/event-stream") && response.body)
    for await (const event of decodeSse(response.body)) messages.push(JSON.parse(event.data));
  else messages.push(await response.json());
  const last = messages.at(-1);
  if (!last || last.error || !last.result) throw new Error(`bad reply: ${JSON.stringify(last)}`);
  return messages;
}
export const result = async (response: Response) =>
  (await messagesOf(response)).at(-1)?.result ?? {};
export const text = (r: Record<string, unknown>) =>
  (r.content as { text?: string }[] | undefined)?.[0]?.text ?? "";

export const tasks = { created: 0, resultsRead: 0, abandoned: 0 };
/** The notes the listeners hold streams on, created for the run. */
export const listenedNotes: number[] = [];
/** Edits of each listened note that completed, with when their reply came. */
export const edits = new Map<number, number[]>();

export const OPERATIONS: Record<string, () => Promise<void>> = {
  "tools/list": async () => {
    const r = await result(await post("/everything", "tools/list", {}));
    if (!Array.isArray(r.tools) || r.tools.length === 0) throw new Error("no tools");
  },
  "resources/list (paged)": async () => {
    const first = await result(await post("/everything", "resources/list", {}));
    if (typeof first.nextCursor !== "string") throw new Error("no next page");
    await result(await post("/everything", "resources/list", { cursor: first.nextCursor }));
  },
  "tools/call": async () => {
    const r = await result(
      await post("/everything", "tools/call", { name: "add_numbers", arguments: { a: 2, b: 3 } }),
    );
    if (!text(r).includes("5")) throw new Error(`wrong sum: ${text(r)}`);
  },
  "streaming call": async () => {
    const messages = await messagesOf(
      await post(
        "/everything",
        "tools/call",
        { name: "test_tool_with_progress", arguments: {} },
        { meta: { progressToken: "p" } },
      ),
    );
    if (messages.filter((m) => m.method === "notifications/progress").length !== 3)
      throw new Error("missing progress");
  },
  "MRTR round": async () => {
    const args = { version: "1.2.3", environment: "staging" };
    const capabilities = { elicitation: {} };
    const asked = await result(
      await post(
        "/ops",
        "tools/call",
        { name: "deploy_release", arguments: args },
        { capabilities },
      ),
    );
    if (asked.resultType !== "input_required") throw new Error("no input asked");
    const done = await result(
      await post(
        "/ops",
        "tools/call",
        {
          name: "deploy_release",
          arguments: args,
          requestState: asked.requestState,
          inputResponses: { confirmation: { action: "accept", content: { confirm: true } } },
        },
        { capabilities },
      ),
    );
    if (!text(done).startsWith("Deployed")) throw new Error(`not deployed: ${text(done)}`);
  },
  task: async () => {
    const created = await result(
      await post(
        "/ops",
        "tools/call",
        { name: "scan_repo", arguments: { repo: "soak", files: 2, file_ms: 10 } },
        { capabilities: TASKS },
      ),
    );
    const taskId = created.taskId;
    if (typeof taskId !== "string") throw new Error("no task");
    tasks.created++;
    for (let poll = 0; poll < 200; poll++) {
      let got: Record<string, unknown>;
      try {
        got = await result(await post("/ops", "tasks/get", { taskId }, { capabilities: TASKS }));
      } catch (error) {
        // A poll that met a restart is asked again: the task lives on in its object.
        if (!inWindow(Date.now())) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (got.status === "completed" && got.result) {
        tasks.resultsRead++;
        return;
      }
      if (got.status !== "working") throw new Error(`task ${String(got.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    tasks.abandoned++;
    throw new Error("the task did not complete in time");
  },
  "notes write": async () => {
    const id = listenedNotes[Math.floor(Math.random() * listenedNotes.length)] as number;
    const r = await result(
      await post("/notes", "tools/call", {
        name: "edit_note",
        arguments: { id, body: `Soak edit at ${Date.now()}.` },
      }),
    );
    if (text(r) !== `Updated note ${id}.`) throw new Error(`not updated: ${text(r)}`);
    edits.set(id, [...(edits.get(id) ?? []), Date.now()]);
  },
  "hub call": async () => {
    const r = await result(
      await post("", "tools/call", { name: "everything__add_numbers", arguments: { a: 4, b: 5 } }),
    );
    if (!text(r).includes("9")) throw new Error(`wrong sum: ${text(r)}`);
  },
};
const WEIGHTS: Record<string, number> = {
  "tools/list": 4,
  "resources/list (paged)": 2,
  "tools/call": 6,
  "streaming call": 2,
  "MRTR round": 1,
  task: 1,
  "notes write": 2,
  "hub call": 4,
};
export const DECK = Object.entries(WEIGHTS).flatMap(([name, weight]) =>
  Array<string>(weight).fill(name),
);

/** One listened note: sessions (acknowledged to ended) and what each received. */
export type Session = { from: number; to: number; delivered: number };

/** Listens to notes://note-`id` until `deadline`, listening again whenever a stream ends. */
export async function listener(id: number, deadline: number, sessions: Session[]): Promise<void> {
  while (Date.now() < deadline) {
    const abort = new AbortController();
    const stop = setTimeout(() => abort.abort(), deadline - Date.now());
    const session: Session = { from: 0, to: 0, delivered: 0 };
    try {
      const response = await post(
        "/notes",
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: [`notes://note-${id}`] } },
        {},
        abort.signal,
      );
      if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}`);
      for await (const event of decodeSse(response.body)) {
        const message = JSON.parse(event.data) as Message;
        if (message.method === "notifications/subscriptions/acknowledged") {
          session.from = Date.now();
          sessions.push(session);
        } else if (message.method === "notifications/resources/updated") session.delivered++;
      }
    } catch {
      // Ended by a restart or by the deadline: listen again (or stop).
    } finally {
      clearTimeout(stop);
      session.to = Date.now();
    }
    if (Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

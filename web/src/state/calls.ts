import { signal } from "@preact/signals";
import {
  McpError,
  TaskHandle,
  type CallToolResult,
  type GetPromptResult,
  type Progress,
  type ReadResourceResult,
  type Reply,
} from "../../../shared/client/index.ts";
import { UriTemplate } from "../../../shared/uri-template.ts";
import { isRecord } from "../lib/json.ts";
import type { RequestKind } from "../lib/permalink.ts";
import { addHandles, collectHandles } from "../lib/wallet.ts";
import { record } from "./history.ts";
import { addLog } from "./logs.ts";
import { logLevel, selectedKey, session, timeoutSeconds, wallet } from "./store.ts";
import { runAsTask, trackTask } from "./tasks.ts";

/** One request the user sent from the playground, while it runs and after. */
export type CallRecord = {
  id: number;
  traceId: string;
  kind: RequestKind;
  name: string;
  args: unknown;
  startedAt: number;
  endedAt?: number;
  status: "running" | "done" | "failed" | "cancelled" | "timeout";
  progress?: Progress;
  /** When the last sign of life (start or progress) came; the timeout counts from it. */
  lastActivity: number;
  timeoutMs: number;
  /** The result and where it came from, by the kind of request. */
  tool?: Reply<CallToolResult>;
  prompt?: Reply<GetPromptResult>;
  resource?: Reply<ReadResourceResult>;
  taskId?: string;
  error?: { message: string; kind?: string; code?: number; status?: number; data?: unknown };
  logs: number;
};

export const calls = signal<CallRecord[]>([]);
const controllers = new Map<number, AbortController>();
let nextId = 1;

function update(id: number, change: Partial<CallRecord>): void {
  calls.value = calls.value.map((c) => (c.id === id ? { ...c, ...change } : c));
}

function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** The latest call for an item, if any. */
export function latestCall(kind: RequestKind, name: string): CallRecord | undefined {
  return calls.value.find((c) => c.kind === kind && c.name === name);
}

/** The resource URI a template's variables expand to. */
export function expandTemplate(template: string, args: unknown): string {
  const values = isRecord(args)
    ? Object.fromEntries(
        Object.entries(args).map(([k, v]) => [
          k,
          v === undefined || v === "" ? undefined : String(v),
        ]),
      )
    : {};
  return new UriTemplate(template).expand(values);
}

function stringArgs(args: unknown): Record<string, string> {
  return isRecord(args)
    ? Object.fromEntries(
        Object.entries(args)
          .filter(([, v]) => v !== undefined && v !== "")
          .map(([k, v]) => [k, String(v)]),
      )
    : {};
}

function summaryOf(outcome: Outcome, error: CallRecord["error"]): string {
  if (error) return error.message;
  if (outcome.tool) {
    const { result } = outcome.tool;
    const text = result.content.find((b) => b.type === "text");
    return (
      (result.isError ? "error: " : "") +
      (text?.type === "text" ? text.text.slice(0, 120) : `${result.content.length} block(s)`)
    );
  }
  if (outcome.prompt) return `${outcome.prompt.result.messages.length} message(s)`;
  if (outcome.resource) return `${outcome.resource.result.contents.length} content item(s)`;
  return outcome.taskId ? `became task ${outcome.taskId}` : "";
}

type Outcome = Pick<CallRecord, "tool" | "prompt" | "resource" | "taskId">;

/**
 * Sends one request: a tool call (a task when the server makes it one), a prompt, or a resource
 * read. Progress restarts the timeout; Cancel (or the timeout) closes the stream, which is how
 * 2026 cancels; log messages go to the logs pane; handles in the result go to the wallet.
 */
export async function runCall(kind: RequestKind, name: string, args: unknown): Promise<void> {
  const current = session.value;
  if (!current) return;
  const { client } = current;
  const id = nextId++;
  const traceId = hex(16);
  const controller = new AbortController();
  controllers.set(id, controller);
  const timeoutMs = Math.max(1, timeoutSeconds.value) * 1000;
  const entry: CallRecord = {
    id,
    traceId,
    kind,
    name,
    args,
    startedAt: Date.now(),
    status: "running",
    lastActivity: Date.now(),
    timeoutMs,
    logs: 0,
  };
  calls.value = [entry, ...calls.value].slice(0, 100);
  let timer = setTimeout(() => controller.abort("timeout"), timeoutMs);
  const options = {
    signal: controller.signal,
    meta: { traceparent: `00-${traceId}-${hex(8)}-01` },
    ...(logLevel.value === "" ? {} : { logLevel: logLevel.value }),
    onProgress: (progress: Progress) => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort("timeout"), timeoutMs);
      update(id, { progress, lastActivity: Date.now() });
    },
    onLog: (message: Parameters<typeof addLog>[1]) => {
      addLog(`${kind} ${name}`, message);
      update(id, { logs: (calls.value.find((c) => c.id === id)?.logs ?? 0) + 1 });
    },
  };
  const outcome: Outcome = {};
  let error: CallRecord["error"];
  let status: CallRecord["status"] = "done";
  try {
    if (kind === "tool") {
      const answer = await client.callTool(name, isRecord(args) ? args : {}, {
        ...options,
        returnTask: true,
        ...(runAsTask.value[name] ? { asTask: true } : {}),
      });
      if (answer.result instanceof TaskHandle) {
        trackTask(answer.result, name);
        outcome.taskId = answer.result.taskId;
        update(id, { taskId: answer.result.taskId });
      } else {
        outcome.tool = { ...answer, result: answer.result };
        if (answer.result.structuredContent !== undefined)
          wallet.value = addHandles(
            wallet.value,
            collectHandles(answer.result.structuredContent, name, Date.now()),
          );
      }
    } else if (kind === "prompt")
      outcome.prompt = await client.getPrompt(name, stringArgs(args), options);
    else {
      const uri = kind === "template" ? expandTemplate(name, args) : name;
      outcome.resource = await client.readResource(uri, options);
    }
  } catch (caught) {
    const reason = controller.signal.reason;
    status = controller.signal.aborted
      ? reason === "timeout"
        ? "timeout"
        : "cancelled"
      : "failed";
    error =
      status === "timeout"
        ? {
            message: `No answer or progress for ${timeoutMs / 1000} s: the call was cancelled (closing its stream).`,
          }
        : caught instanceof McpError
          ? {
              message: caught.message,
              kind: caught.kind,
              ...(caught.code === undefined ? {} : { code: caught.code }),
              ...(caught.status === undefined ? {} : { status: caught.status }),
              data: caught.data,
            }
          : { message: caught instanceof Error ? caught.message : String(caught) };
  } finally {
    clearTimeout(timer);
    controllers.delete(id);
  }
  const endedAt = Date.now();
  update(id, { status, endedAt, ...outcome, ...(error ? { error } : {}) });
  record({
    at: entry.startedAt,
    url: current.url,
    kind,
    name,
    args,
    status,
    durationMs: endedAt - entry.startedAt,
    summary: summaryOf(outcome, error),
  });
}

/** Cancels a running call by closing its stream. */
export function cancelCall(id: number): void {
  controllers.get(id)?.abort("cancelled");
}

/** Reads a linked resource and shows it as the selected item. */
export function readLinked(uri: string): void {
  selectedKey.value = `resource:${uri}`;
  void runCall("resource", uri, undefined);
}

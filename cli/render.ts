import type { CallToolResult, LogMessageParams, Progress, Task } from "../shared/client/index.ts";
import type { ContentBlock } from "../shared/protocol/content.ts";

/** The first line of a description, cut to fit a terminal row. */
export function summary(text: string | undefined, width = 72): string {
  const line = (text ?? "").split("\n")[0]?.trim() ?? "";
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** Rows as aligned columns under a title with a count. */
export function section(title: string, rows: Array<[string, string]>): string {
  const width = Math.max(0, ...rows.map(([name]) => name.length));
  const lines = rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`.trimEnd());
  return [`${title} (${rows.length})`, ...lines].join("\n");
}

/** Bytes of base64 data, for describing media without printing it. */
function decodedSize(base64: string): number {
  return Math.floor((base64.replace(/=+$/, "").length * 3) / 4);
}

function block(content: ContentBlock): string {
  switch (content.type) {
    case "text":
      return content.text;
    case "image":
    case "audio":
      return `[${content.type} ${content.mimeType}, ${decodedSize(content.data)} bytes]`;
    case "resource_link":
      return `[link] ${content.uri}${content.description ? `  ${summary(content.description)}` : ""}`;
    case "resource":
      return "text" in content.resource
        ? content.resource.text
        : `[resource ${content.resource.uri}, ${decodedSize(content.resource.blob)} bytes]`;
  }
}

/** A tool result for people: its content blocks, or its structured content when it has none. */
export function renderResult(result: CallToolResult): string {
  if (result.content.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return result.content.map(block).join("\n");
}

/** One progress notification as a line for stderr: `progress 2/3 Step 2 of 3`. */
export function progressLine({ progress, total, message }: Progress): string {
  return `progress ${progress}${total === undefined ? "" : `/${total}`}${message ? ` ${message}` : ""}`;
}

/** One status of a task as a line for stderr: `task 7c1e… working: Gathering sources...`. */
export function taskLine({ taskId, status, statusMessage }: Task): string {
  return `task ${taskId} ${status}${statusMessage ? `: ${statusMessage}` : ""}`;
}

/** One log message as a line for stderr: `log warning [db]: Slow query` (data not a string as JSON). */
export function logLine({ level, logger, data }: LogMessageParams): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `log ${level}${logger ? ` [${logger}]` : ""}: ${text}`;
}

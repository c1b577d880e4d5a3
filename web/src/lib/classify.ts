import type { ContentBlock } from "../../../shared/protocol/content.ts";
import type { CallToolResult } from "../../../shared/client/index.ts";
import type { Schema } from "./schema/resolve.ts";
import { validate, type Problem } from "./schema/validate.ts";

/** How one content block is shown. */
export type Shown =
  | { kind: "text"; text: string; markdown: boolean }
  | { kind: "image" | "audio"; src: string; mimeType: string }
  | {
      kind: "link";
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
    }
  | {
      kind: "embedded";
      uri: string;
      mimeType?: string;
      text?: string;
      media?: { kind: "image" | "audio"; src: string };
      bytes?: number;
      /** A blob shown only by its size: a `data:` URL to save it, and a file name for that. */
      save?: { href: string; fileName: string };
    }
  | { kind: "invalid"; reason: string; json: unknown };

const MIME = /^[\w.+-]+\/[\w.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A `data:` URL for base64 media, only for a well-formed type and payload (never markup). */
export function dataUrl(mimeType: string, base64: string): string | undefined {
  const data = base64.replace(/\s+/g, "");
  if (!MIME.test(mimeType) || !BASE64.test(data)) return undefined;
  return `data:${mimeType};base64,${data}`;
}

/** How many bytes a base64 payload decodes to (its padding counts for none). */
export function decodedBytes(base64: string): number {
  const data = base64.replace(/\s+/g, "");
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The name a saved resource gets: the last segment of its URI, or "resource". */
function fileNameOf(uri: string): string {
  const last = uri.split(/[?#]/)[0]!.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last) || "resource";
  } catch {
    return last;
  }
}

/** Heuristic: headings, lists, emphasis, code or links make text worth rendering as Markdown. */
export function looksLikeMarkdown(text: string): boolean {
  return /(^|\n)(#{1,6} |[-*] |\d+\. |> |```)|\*\*[^*]+\*\*|`[^`]+`|\[[^\]]+\]\([^)]+\)/.test(text);
}

function mediaKind(mimeType: string | undefined): "image" | "audio" | undefined {
  if (mimeType?.startsWith("image/")) return "image";
  if (mimeType?.startsWith("audio/")) return "audio";
  return undefined;
}

/** Decides how a content block is shown; anything malformed is shown as such, never rendered. */
export function classifyBlock(block: ContentBlock): Shown {
  switch (block.type) {
    case "text":
      return { kind: "text", text: block.text, markdown: looksLikeMarkdown(block.text) };
    case "image":
    case "audio": {
      const src = dataUrl(block.mimeType, block.data);
      return src
        ? { kind: block.type, src, mimeType: block.mimeType }
        : {
            kind: "invalid",
            reason: `The ${block.type} is not valid base64 of ${block.mimeType}.`,
            json: block,
          };
    }
    case "resource_link":
      return {
        kind: "link",
        uri: block.uri,
        name: block.name,
        ...(block.title === undefined ? {} : { title: block.title }),
        ...(block.description === undefined ? {} : { description: block.description }),
        ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
      };
    case "resource": {
      const r = block.resource;
      const base = {
        kind: "embedded" as const,
        uri: r.uri,
        ...(r.mimeType === undefined ? {} : { mimeType: r.mimeType }),
      };
      if ("text" in r) return { ...base, text: r.text };
      const kind = mediaKind(r.mimeType);
      const src = kind && r.mimeType ? dataUrl(r.mimeType, r.blob) : undefined;
      const href = dataUrl(r.mimeType ?? "application/octet-stream", r.blob);
      return {
        ...base,
        ...(kind && src ? { media: { kind, src } } : {}),
        bytes: decodedBytes(r.blob),
        ...(href ? { save: { href, fileName: fileNameOf(r.uri) } } : {}),
      };
    }
  }
}

/** A tool result, ready to show: its blocks, its structured content checked, what the model reads. */
export type ToolResultView = {
  isError: boolean;
  blocks: Shown[];
  /** Present when the result has structured content. */
  structured?: { value: unknown; problems: Problem[] | undefined };
  /** Output schema given, but no structured content: a server bug. */
  missingStructured: boolean;
  /** The result's text as a model reads it (errors marked as the tool's failure). */
  modelText: string;
};

/** Classifies a `tools/call` result, checking `structuredContent` against the `outputSchema`. */
export function viewToolResult(
  result: CallToolResult,
  outputSchema: Schema | undefined,
): ToolResultView {
  const blocks = result.content.map(classifyBlock);
  const hasStructured = "structuredContent" in result && result.structuredContent !== undefined;
  const texts = result.content.map((b) =>
    b.type === "text" ? b.text : `[${b.type}${b.type === "resource_link" ? ` ${b.uri}` : ""}]`,
  );
  const isError = result.isError === true;
  return {
    isError,
    blocks,
    ...(hasStructured
      ? {
          structured: {
            value: result.structuredContent,
            problems:
              outputSchema && !isError
                ? validate(outputSchema, result.structuredContent)
                : undefined,
          },
        }
      : {}),
    missingStructured: !hasStructured && outputSchema !== undefined && !isError,
    modelText: (isError ? "Tool error: " : "") + texts.join("\n"),
  };
}

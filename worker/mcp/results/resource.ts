import { toBase64 } from "../../../shared/base64.ts";
import type { ResourceContents } from "../../../shared/protocol/content.ts";
import type { ForwardedResult } from "./ready.ts";

/** What a resource reader may return: text, bytes, one content entry or several. */
export type ReadReturn =
  | string
  | Uint8Array
  | { text: string; mimeType?: string }
  | { blob: Uint8Array | string; mimeType?: string }
  | ResourceContents[]
  | ForwardedResult;

/** Normalizes what a reader returned into `contents` entries for `uri`. */
export function toContents(
  uri: string,
  value: Exclude<ReadReturn, ForwardedResult>,
  mimeType: string | undefined,
): ResourceContents[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return [{ uri, mimeType: mimeType ?? "text/plain", text: value }];
  if (value instanceof Uint8Array)
    return [{ uri, mimeType: mimeType ?? "application/octet-stream", blob: toBase64(value) }];
  const type = value.mimeType ?? mimeType;
  const typed = type === undefined ? {} : { mimeType: type };
  if ("text" in value) return [{ uri, ...typed, text: value.text }];
  return [
    { uri, ...typed, blob: typeof value.blob === "string" ? value.blob : toBase64(value.blob) },
  ];
}

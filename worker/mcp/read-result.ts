import type { ResourceContents } from "../../shared/protocol/content.ts";
import type { ForwardedResult, ReadReturn } from "./results.ts";

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

/** Standard base64 of bytes (chunked so large blobs do not overflow the argument list). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

import * as z from "zod/mini";
import { TextContentSchema, type Annotations } from "../../../shared/protocol/content.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { describeIssues } from "../schema/issues.ts";
import { serializedBlocks } from "./ready.ts";

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Each block serialized once: the UTF-8 bytes of its JSON, made the first time a reply carries
 * it rather than when it is built, so a block built at module level (where a big text usually is)
 * costs the isolate's start-up nothing but the check of its members.
 */
const blocks = /* @__PURE__ */ new WeakMap<SerializedText, Uint8Array>();

function bytesOf(block: SerializedText): Uint8Array {
  let bytes = blocks.get(block);
  if (!bytes) {
    bytes = encoder.encode(JSON.stringify(block));
    blocks.set(block, bytes);
  }
  return bytes;
}

/** What stands for a block serialized once while the rest of its response is serialized. */
export const MARKER = "\u0000edgemcp: a serialized block\u0000";
const MARKER_JSON = /* @__PURE__ */ JSON.stringify(MARKER);

/**
 * A text content block serialized once, for a long text served again and again (a document, a
 * big listing built once per isolate): a JSON reply that carries it copies the block's UTF-8
 * bytes, made once (for the first reply that carries it), instead of escaping, joining and
 * encoding the text again for every response. Otherwise it is a text block like any other,
 * `type`, `text` and the optional `annotations` and `_meta`, which every other form of the reply
 * (a stream, a caller of this isolate such as the hub) reads as it is; the bytes are the plain
 * block's JSON, so the reply is byte for byte the one the plain block would get. Frozen, so the
 * text and its bytes cannot part ways.
 */
export class SerializedText {
  // In the plain block's order: the bytes are its JSON.
  readonly type: "text";
  readonly text: string;
  declare readonly annotations?: Annotations;
  declare readonly _meta?: JsonObject;

  constructor(text: string, extra: { annotations?: Annotations; _meta?: JsonObject } = {}) {
    this.type = "text";
    this.text = text;
    const block = { type: "text", text, ...extra };
    const parsed = z.safeParse(TextContentSchema, block);
    if (!parsed.success)
      throw new TypeError(`serializedText: ${describeIssues(parsed.error, "block", block)}`);
    if (extra.annotations !== undefined) Object.assign(this, { annotations: extra.annotations });
    if (extra._meta !== undefined) Object.assign(this, { _meta: extra._meta });
    Object.freeze(this);
    serializedBlocks.splice ??= splice;
  }
}

/**
 * A text content block serialized once (see `SerializedText`): build it once, where the text
 * is made (at module level, or cached with the text), and return it from tools as often as
 * needed, alone, in an array of blocks or in `toolResult({ content })`. A text made for one call
 * gains nothing: return the string.
 */
export function serializedText(
  text: string,
  extra?: { annotations?: Annotations; _meta?: JsonObject },
): SerializedText {
  return new SerializedText(text, extra);
}

/**
 * A JSON response whose result's content holds blocks serialized once, as UTF-8 bytes: the era
 * serializes it with a marker in place of each such block, and each block's bytes are copied in
 * where its marker is. A marker found more often than there are such blocks (a value of the
 * result that happens to be the marker) gives the plainly serialized response. Undefined when
 * the content holds no such block.
 */
function splice(
  result: JsonObject,
  serialize: (result: JsonObject) => string,
): Uint8Array | undefined {
  const { content } = result;
  if (!Array.isArray(content)) return undefined;
  const found: Uint8Array[] = [];
  const marked = content.map((block) => {
    if (!(block instanceof SerializedText)) return block;
    found.push(bytesOf(block));
    return MARKER;
  });
  if (found.length === 0) return undefined;
  const parts = serialize({ ...result, content: marked }).split(MARKER_JSON);
  if (parts.length !== found.length + 1) return encoder.encode(serialize(result));
  const encoded = parts.map((part) => encoder.encode(part));
  let length = 0;
  for (const part of [...encoded, ...found]) length += part.byteLength;
  const bytes = new Uint8Array(length);
  let at = 0;
  encoded.forEach((part, i) => {
    bytes.set(part, at);
    at += part.byteLength;
    const block = found[i];
    if (block) {
      bytes.set(block, at);
      at += block.byteLength;
    }
  });
  return bytes;
}

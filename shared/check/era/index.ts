import { isJsonObject } from "../../jsonrpc.ts";
import { ErrorCode } from "../../protocol/errors.ts";
import { Header } from "../../protocol/headers.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { isHandshakeEraVersion, type Era } from "../../protocol/versions.ts";
import { headerOf, type HeaderBag } from "../headers.ts";
import type { Exchange } from "../probe.ts";
import type { MessageRules, ServerRules } from "./era.ts";
import { legacy } from "./legacy.ts";
import { modern } from "./modern.ts";
import { unknown } from "./unknown.ts";

/** The rules of each era's messages, by the era a request was sent in. */
export const MESSAGE_RULES: Readonly<Record<Era, MessageRules>> = { modern, legacy };

/** Which era a request was sent in: 2026 requests carry the version in `_meta`. */
export function requestEra(body: unknown, headers: HeaderBag): Era {
  const params = isJsonObject(body) && isJsonObject(body.params) ? body.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  if (typeof meta[MetaKey.protocolVersion] === "string") return "modern";
  const version = headerOf(headers, Header.protocolVersion);
  return version !== undefined && !isHandshakeEraVersion(version) ? "modern" : "legacy";
}

// Errors only a 2026-07-28 server sends: a server answering with one speaks the revision.
const MODERN_ERRORS: readonly number[] = [
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
];

/** The era a `server/discover` reply shows: 2026 for a result or a 2026-only error. */
export function eraOfDiscover(reply: Exchange): ServerRules {
  if (reply.status === 200 && reply.result) return modern;
  return reply.error && MODERN_ERRORS.includes(reply.error.code) ? modern : unknown;
}

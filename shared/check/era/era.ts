import type { JsonObject } from "../../protocol/messages.ts";
import type { Era } from "../../protocol/versions.ts";
import type { Finding } from "../finding.ts";
import type { HeaderBag } from "../headers.ts";
import type { Exchange, Probe } from "../probe.ts";
import type { CheckStatus, ServerEra } from "../report.ts";
import type { ResultRule } from "../result-schemas.ts";

/**
 * What the messages of one era must satisfy: the requests sent in it, the HTTP replies to them
 * and what the server sends back. `modern.ts` and `legacy.ts` implement it; the checks of one
 * exchange ask the era of its request (`MESSAGE_RULES` in `index.ts`).
 */
export interface MessageRules {
  readonly name: Era;
  /** A request with an id, as sent: what the era requires of its `_meta` and headers. */
  request(method: string, params: JsonObject, headers: HeaderBag): Finding[];
  /** The headers of the HTTP reply to a request, once its media type and status are right. */
  replyHeaders(headers: HeaderBag): Finding[];
  /** A result of a method whose result shape is known. */
  result(result: JsonObject, rule: ResultRule, method: string): Finding[];
  /** A well-formed error's code, and the HTTP status it came with. */
  errorCode(code: number, status: number | undefined): Finding[];
  /** A notification on a `stream` the era has its own rules for (2026 listen streams). */
  streamNotification(method: string, message: JsonObject, stream: string): Finding[] | undefined;
  /** A notification no rule covers, on a reply to `stream`. */
  otherNotification(method: string, stream: string): Finding[];
  /** A request the server sent on a response stream. */
  serverRequest(method: string, message: JsonObject): Finding[];
  /** The members every result of the era carries that `result` lacks, for the run's summary. */
  missingMembers(result: JsonObject): Array<"resultType" | "serverInfo">;
}

/** How a step of a check run is recorded, where the server's era decides it. */
export type Verdict = { status: CheckStatus; detail: string };

/**
 * What a check run expects of a server by the era it was found to speak, or of one whose era
 * is not known yet (`unknown.ts`). The run starts unknown; `server/discover` and `initialize`
 * replace it (`eraOfDiscover` in `index.ts`, `revealedByHandshake`).
 */
export interface ServerRules {
  readonly name: ServerEra;
  /** Why the 2026 checks are skipped on this server; undefined when it speaks 2026-07-28. */
  readonly no2026: string | undefined;
  /** How a `server/discover` that got no result is recorded. */
  discoverRefused(got: string): Verdict;
  /** How a refused `initialize` is recorded. */
  handshakeRefused(got: string): Verdict;
  /** The era an answered `initialize` reveals, when `server/discover` left it unknown. */
  readonly revealedByHandshake?: ServerRules;
  /** The request whose reply shows whether a page on `origin` may read the server's replies. */
  corsReply(probe: Probe, origin: string): Promise<Exchange>;
}

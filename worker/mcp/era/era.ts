import type {
  ClientCapabilities,
  ServerCapabilities,
} from "../../../shared/protocol/capabilities.ts";
import type { RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonObject, JsonRpcId, JsonRpcRequest } from "../../../shared/protocol/messages.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Era } from "../../../shared/protocol/versions.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { Envelope, RequestInfo } from "../context/context.ts";
import type { EraRules, Route } from "../methods/method.ts";
import type { Coordination } from "../ports.ts";

/** What the envelope stage learns of a request, in its era. */
export type Enveloped = {
  envelope: Envelope;
  /** What the server advertises to this era's clients (the capability gate reads it). */
  capabilities: ServerCapabilities;
  /** The session id that scopes a caller's cancellations (see `sessionId`). */
  sessionId: string | undefined;
  /**
   * Whether the request answers an earlier round of input (2026 `inputResponses` or
   * `requestState`): its input is then opened, and checked, before the handler runs.
   */
  answers: boolean;
};

/**
 * One generation of the protocol, as the pipeline sees it: everything that differs between
 * 2026-07-28 requests and those of 2025 clients that began with `initialize`. The pipeline picks
 * the era of a request once (`eraOf`) and calls it; `modern/` and `legacy/` implement it.
 */
export interface EraAdapter extends EraRules {
  readonly name: Era;
  /**
   * The envelope stage, in one call: reads and checks the request's envelope (`_meta` and every
   * `MCP-*`/`Mcp-*` header: routing and parameter headers, or the negotiated version and the
   * session id) and says what the server advertises to the request's era.
   */
  envelope(
    message: JsonRpcRequest,
    headers: Headers,
    catalog: Catalog,
    coordination: Coordination,
  ): Enveloped;
  /** The methods this era serves. */
  readonly routes: Readonly<Record<string, Route>>;
  /** Whether this era serves the methods features add (tasks, listen: 2026-07-28 methods). */
  readonly featureMethods: boolean;
  /** Extra words for -32601 on methods that exist in the other era. */
  readonly notFoundHints: Readonly<Record<string, string>>;
  /** Whether a log message at `level` goes to the client. */
  logs(level: LogLevel, info: RequestInfo): boolean;
  /** A method's result object as this era's clients read it, serialized. */
  result(result: JsonObject, id: JsonRpcId, catalog: Catalog): string;
  /** The same response as an object, for a caller of this isolate that takes it as it is. */
  resultMessage(result: JsonObject, id: JsonRpcId, catalog: Catalog): JsonObject;
  /** The HTTP status of an error reply. */
  status(error: RpcError): number;
  /** The capabilities a proxy declares upstream on behalf of this request's client. */
  upstreamCapabilities(info: RequestInfo): ClientCapabilities;
  /** The log level a proxy asks upstream on behalf of this request's client (none: no logs). */
  upstreamLogLevel(info: RequestInfo): LogLevel | undefined;
  /**
   * The session id a message carries, which scopes a caller's cancellations: a 2025
   * client's `Mcp-Session-Id` (a malformed one is an HttpError 400); 2026 requests carry none
   * that counts (the header is ignored).
   */
  sessionId(headers: Headers): string | undefined;
  /** Headers for the reply to a successful request: a 2025 `initialize` mints a session id. */
  resultHeaders(info: RequestInfo): Readonly<Record<string, string>> | undefined;
}

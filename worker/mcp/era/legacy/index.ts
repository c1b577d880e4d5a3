import { ErrorCode } from "../../../../shared/protocol/errors.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import type { LegacyMethod } from "../../../../shared/protocol/methods.ts";
import { COMMON_ROUTES } from "../../methods/common.ts";
import type { Route } from "../../methods/method.ts";
import type { EraAdapter } from "../era.ts";
import { readLegacyEnvelope } from "./envelope.ts";
import { legacyAsking } from "./input.ts";
import { acknowledgeSubscription, initialize, ping, setLevel } from "./methods.ts";
import { legacyPage, legacyResult, legacyStatus } from "./result.ts";
import { mintSessionId, readSessionId } from "./session.ts";

const ROUTES = {
  ...COMMON_ROUTES,
  initialize: { run: initialize },
  ping: { run: ping },
  "logging/setLevel": { run: setLevel },
  "resources/subscribe": { run: acknowledgeSubscription },
  "resources/unsubscribe": { run: acknowledgeSubscription },
} satisfies Record<LegacyMethod, Route>;

/**
 * The 2025 era, served without sessions: `initialize` only settles the version (and gives an
 * `Mcp-Session-Id` that holds no state), every later request stands alone, and input is asked
 * for with requests on the call's stream. Change notifications are not offered: 2025 clients
 * would expect them on a session stream.
 */
export const legacy: EraAdapter = {
  name: "legacy",
  envelope: readLegacyEnvelope,
  routes: ROUTES,
  notFoundHints: { "server/discover": "server/discover needs the 2026-07-28 _meta envelope" },
  // Change notifications need a listen stream, which 2025 clients expect on a session.
  capabilities(catalog) {
    return catalog.capabilities;
  },
  asking: legacyAsking,
  // Every log message: the level `logging/setLevel` set cannot outlive its request.
  logs() {
    return true;
  },
  // What a client declared in `initialize` cannot be recalled, so nothing is refused for it.
  requireCapabilities() {},
  page: legacyPage,
  resourceNotFound: ErrorCode.LegacyResourceNotFound,
  result: legacyResult,
  status: legacyStatus,
  // Every kind of input a 2025 client may be asked for, on its behalf.
  upstreamCapabilities() {
    return { elicitation: {}, sampling: {}, roots: {} };
  },
  sessionId: readSessionId,
  // A fresh id for each handshake, which the client sends on every later request: it keeps an
  // anonymous caller's cancellations to its own calls (see call/cancel.ts).
  resultHeaders(method) {
    return method === "initialize" ? { [Header.sessionId]: mintSessionId() } : undefined;
  },
};

import { ErrorCode } from "../../../../shared/protocol/errors.ts";
import { logLevelPasses } from "../../../../shared/protocol/meta.ts";
import type { ModernMethod } from "../../../../shared/protocol/methods.ts";
import { COMMON_ROUTES } from "../../methods/common.ts";
import { discover } from "../../methods/discover.ts";
import { listen } from "../../methods/listen.ts";
import type { Route } from "../../methods/method.ts";
import { requireCapabilities } from "../../methods/requirements.ts";
import { cancelTask, getTask, updateTask } from "../../methods/tasks.ts";
import type { EraAdapter } from "../era.ts";
import { modernCapabilities } from "./capabilities.ts";
import { readEnvelope } from "./envelope.ts";
import { modernAsking } from "./mrtr.ts";
import { modernPage, modernResult, modernStatus } from "./result.ts";

const ROUTES = {
  ...COMMON_ROUTES,
  "server/discover": { run: discover },
  "subscriptions/listen": { stream: listen },
  "tasks/get": { run: getTask },
  "tasks/update": { run: updateTask },
  "tasks/cancel": { run: cancelTask },
} satisfies Record<ModernMethod, Route>;

/**
 * The 2026-07-28 era: every request stands alone, carrying its version and capabilities in
 * `_meta` and its method and names in headers; input is asked for with `input_required`.
 */
export const modern: EraAdapter = {
  name: "modern",
  envelope: readEnvelope,
  routes: ROUTES,
  notFoundHints: {},
  capabilities: modernCapabilities,
  asking: modernAsking,
  // A client hears log messages at or above the level its `_meta` asked for, and no others.
  logs(level, info) {
    return info.logLevel !== undefined && logLevelPasses(level, info.logLevel);
  },
  requireCapabilities(required, info, what) {
    requireCapabilities(required, info.clientCapabilities, what);
  },
  page: modernPage,
  resourceNotFound: ErrorCode.InvalidParams,
  result: modernResult,
  status: modernStatus,
  upstreamCapabilities(info) {
    return info.clientCapabilities;
  },
  // Sessions are gone: an Mcp-Session-Id is ignored, and none is ever minted.
  sessionId() {
    return undefined;
  },
  resultHeaders() {
    return undefined;
  },
};

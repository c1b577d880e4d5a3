import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import { isLegacyVersion, LEGACY_VERSIONS } from "../../../../shared/protocol/versions.ts";
import type { MethodHandler } from "../../methods/method.ts";
import { checkedParams } from "../../methods/params.ts";

/**
 * `initialize`, answered without a session: the handshake only settles the version, and every
 * later request stands alone (the `Mcp-Session-Id` its reply carries holds no state; see the
 * era's `resultHeaders`).
 */
export const initialize: MethodHandler = (call) => {
  const { protocolVersion } = checkedParams("initialize", call.params, call.ctx.request.method);
  const { catalog } = call;
  return {
    protocolVersion: isLegacyVersion(protocolVersion) ? protocolVersion : LEGACY_VERSIONS[0],
    capabilities: call.capabilities,
    serverInfo: catalog.serverInfo,
    ...(catalog.definition.instructions ? { instructions: catalog.definition.instructions } : {}),
  };
};

export const ping: MethodHandler = () => ({});

/** Accepted for compatibility; the level cannot outlive the request, so logs are not filtered by it. */
export const setLevel: MethodHandler = (call) => {
  checkedParams("setLevel", call.params, call.ctx.request.method);
  return {};
};

/**
 * `resources/subscribe` and `resources/unsubscribe` from 2025 clients are acknowledged for
 * resources that exist. Without a session there is no stream to deliver updates on, so the
 * capability is not advertised; 2026 clients get updates through `subscriptions/listen`.
 */
export const acknowledgeSubscription: MethodHandler = (call) => {
  const { uri } = checkedParams("subscribe", call.params, call.ctx.request.method);
  const { catalog } = call;
  if (!catalog.resources.has(uri) && !catalog.templates.some((t) => t.template.match(uri))) {
    throw new RpcError(ErrorCode.LegacyResourceNotFound, `Resource not found: ${uri}.`, { uri });
  }
  return {};
};

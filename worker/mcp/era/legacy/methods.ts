import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import {
  InitializeParamsSchema,
  SetLevelParamsSchema,
  SubscribeParamsSchema,
} from "../../../../shared/protocol/params.ts";
import { isLegacyVersion, LEGACY_VERSIONS } from "../../../../shared/protocol/versions.ts";
import { parseParams, type MethodHandler } from "../../methods/method.ts";

/**
 * `initialize`, answered without a session: the handshake only settles the version, and every
 * later request stands alone (the `Mcp-Session-Id` its reply carries holds no state; see the
 * era's `resultHeaders`).
 */
export const initialize: MethodHandler = (call) => {
  const { protocolVersion } = parseParams(InitializeParamsSchema, call);
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
  parseParams(SetLevelParamsSchema, call);
  return {};
};

/**
 * `resources/subscribe` and `resources/unsubscribe` from 2025 clients are acknowledged for
 * resources that exist. Without a session there is no stream to deliver updates on, so the
 * capability is not advertised; 2026 clients get updates through `subscriptions/listen`.
 */
export const acknowledgeSubscription: MethodHandler = (call) => {
  const { uri } = parseParams(SubscribeParamsSchema, call);
  const { catalog } = call;
  if (!catalog.resources.has(uri) && !catalog.templates.some((t) => t.template.match(uri))) {
    throw new RpcError(ErrorCode.LegacyResourceNotFound, `Resource not found: ${uri}.`, { uri });
  }
  return {};
};

import { MetaKey } from "../protocol/meta.ts";
import { LooseImplementationSchema, type Implementation } from "../protocol/primitives.ts";
import type { DiscoverResult, InitializeResult } from "../protocol/results.ts";
import type { Era } from "../protocol/versions.ts";

/** What the client knows about the server: from `server/discover`, or mapped from `initialize`. */
export type ServerDescription = {
  era: Era;
  /** The version this client speaks with the server. */
  protocolVersion: string;
  supportedVersions: string[];
  capabilities: DiscoverResult["capabilities"];
  instructions?: string;
  serverInfo?: Implementation;
};

/** Describes a 2026 server from its discover result (serverInfo lives in the result `_meta`). */
export function describeDiscovered(result: DiscoverResult, version: string): ServerDescription {
  const info = LooseImplementationSchema.safeParse(result._meta?.[MetaKey.serverInfo]);
  return {
    era: "modern",
    protocolVersion: version,
    supportedVersions: result.supportedVersions,
    capabilities: result.capabilities,
    ...(result.instructions === undefined ? {} : { instructions: result.instructions }),
    ...(info.success ? { serverInfo: info.data } : {}),
  };
}

/** Describes a 2025 server from its `initialize` result, in the same shape. */
export function describeInitialized(result: InitializeResult): ServerDescription {
  return {
    era: "legacy",
    protocolVersion: result.protocolVersion,
    supportedVersions: [result.protocolVersion],
    capabilities: result.capabilities,
    ...(result.instructions === undefined ? {} : { instructions: result.instructions }),
    serverInfo: result.serverInfo,
  };
}

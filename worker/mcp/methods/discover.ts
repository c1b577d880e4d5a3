import { SUPPORTED_VERSIONS } from "../../../shared/protocol/versions.ts";
import type { Catalog } from "../catalog.ts";
import type { MethodHandler } from "../call.ts";

/** `server/discover`: versions, capabilities, instructions; the same for every caller. */
export const discover: MethodHandler = (call) => discoverResult(call.catalog);

export function discoverResult(catalog: Catalog) {
  return {
    supportedVersions: SUPPORTED_VERSIONS,
    capabilities: catalog.capabilities,
    ...(catalog.definition.instructions ? { instructions: catalog.definition.instructions } : {}),
    ...catalog.cache.discover,
  };
}

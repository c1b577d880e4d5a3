import { SUPPORTED_VERSIONS } from "../../../shared/protocol/versions.ts";
import type { MethodHandler } from "./method.ts";

/** `server/discover`: versions, capabilities, instructions; the same for every caller. */
export const discover: MethodHandler = ({ catalog, capabilities }) => ({
  supportedVersions: SUPPORTED_VERSIONS,
  capabilities,
  ...(catalog.definition.instructions ? { instructions: catalog.definition.instructions } : {}),
  ...catalog.cache.discover,
});

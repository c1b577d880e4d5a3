import { LEGACY_VERSIONS } from "../../protocol/versions.ts";

/** The `initialize` request a 2025 client starts with. */
export const INITIALIZE_PARAMS = {
  // The newest handshake-era revision, the one 2025 clients ask for.
  protocolVersion: LEGACY_VERSIONS[0],
  capabilities: {},
  clientInfo: { name: "edgemcp-check", version: "1.0.0" },
};

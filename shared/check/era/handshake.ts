/** The newest handshake-era revision, the one 2025 clients ask for. */
const LEGACY_VERSION = "2025-11-25";

/** The `initialize` request a 2025 client starts with. */
export const INITIALIZE_PARAMS = {
  protocolVersion: LEGACY_VERSION,
  capabilities: {},
  clientInfo: { name: "edgemcp-check", version: "1.0.0" },
};

/** Which generation of the protocol a request or connection speaks: 2026 per-request `_meta`, or the 2025 handshake. */
export type Era = "modern" | "legacy";

/** The stateless revision edgemcp speaks natively. */
export const MODERN_VERSION = "2026-07-28";

/** Handshake-era revisions still served through `initialize`, newest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

/** What a legacy request without `MCP-Protocol-Version` is read as (the header did not exist yet). */
export const HEADERLESS_LEGACY_VERSION: LegacyVersion = "2025-03-26";

/** Every version a server built on edgemcp answers, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export function isLegacyVersion(version: unknown): version is LegacyVersion {
  return (LEGACY_VERSIONS as readonly unknown[]).includes(version);
}

/** True for a dated version older than the 2026 revision, i.e. one negotiated by `initialize`. */
export function isHandshakeEraVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version < MODERN_VERSION;
}

import type { ServerRules } from "./era.ts";
import { legacy } from "./legacy.ts";
import { modern } from "./modern.ts";

/**
 * A server whose era is not known: it gave `server/discover` no 2026 reply, so the 2026 checks
 * are skipped as for a 2025 server, until an answered `initialize` shows it speaks 2025.
 */
export const unknown: ServerRules = {
  name: "unknown",
  no2026: legacy.no2026,
  discoverRefused: legacy.discoverRefused,
  handshakeRefused: legacy.handshakeRefused,
  revealedByHandshake: legacy,
  // A browser client tries server/discover first.
  corsReply: modern.corsReply,
};

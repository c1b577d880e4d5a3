import * as z from "zod/mini";
import { ErrorCode } from "../protocol/errors.ts";
import { Header } from "../protocol/headers.ts";
import { MetaKey } from "../protocol/meta.ts";
import { LooseImplementationSchema } from "../protocol/primitives.ts";
import { DiscoverResultSchema } from "../protocol/results.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import type { CheckContext } from "./context.ts";
import { cacheHintProblem, described, oneLine } from "./expect.ts";

// Errors only a 2026-07-28 server sends: a server answering with one speaks the revision.
const MODERN_ERRORS: readonly number[] = [
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
];

/** `server/discover`: whether the server speaks 2026-07-28, and what it says about itself. */
export async function discoverChecks(ctx: CheckContext): Promise<void> {
  const exchange = await ctx.probe.modern("server/discover");
  const title = "server/discover answers with a valid result";
  if (exchange.status !== 200 || !exchange.result) {
    if (exchange.error && MODERN_ERRORS.includes(exchange.error.code)) {
      ctx.found.era = "modern";
      ctx.record("discover", "discover.answers", title, "fail", described(exchange));
    } else {
      ctx.record(
        "discover",
        "discover.answers",
        title,
        "warn",
        `no 2026-07-28 reply (${described(exchange)}): the 2026 checks are skipped`,
      );
    }
    return;
  }
  ctx.found.era = "modern";
  const parsed = DiscoverResultSchema.safeParse(exchange.result);
  if (!parsed.success) {
    ctx.record(
      "discover",
      "discover.answers",
      title,
      "fail",
      oneLine(z.prettifyError(parsed.error)),
    );
    return;
  }
  const result = parsed.data;
  ctx.found.capabilities = result.capabilities;
  const info = LooseImplementationSchema.safeParse(result._meta?.[MetaKey.serverInfo]);
  if (info.success) ctx.found.server = { name: info.data.name, version: info.data.version };
  ctx.record("discover", "discover.answers", title, "pass");
  ctx.expect(
    "discover",
    "discover.result-type",
    'The result says resultType "complete"',
    result.resultType === "complete" ? undefined : `got ${JSON.stringify(result.resultType)}`,
  );
  ctx.expect(
    "discover",
    "discover.versions",
    `supportedVersions lists ${MODERN_VERSION}`,
    result.supportedVersions.includes(MODERN_VERSION)
      ? undefined
      : `got ${JSON.stringify(result.supportedVersions)}`,
  );
  ctx.expect(
    "discover",
    "discover.cache-hints",
    "The result carries ttlMs and cacheScope",
    cacheHintProblem(result),
  );
  ctx.expect(
    "discover",
    "discover.server-info",
    "The result names the server in _meta serverInfo",
    info.success ? undefined : `_meta["${MetaKey.serverInfo}"] is missing or incomplete`,
    "warn",
  );
  ctx.expect(
    "discover",
    "discover.no-session",
    "No Mcp-Session-Id is minted for a 2026 request",
    exchange.headers.has(Header.sessionId)
      ? `the reply set ${Header.sessionId}: ${exchange.headers.get(Header.sessionId)}`
      : undefined,
  );
}

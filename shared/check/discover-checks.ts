import { issuesLine } from "../zod-issues.ts";
import { Header } from "../protocol/headers.ts";
import { MetaKey } from "../protocol/meta.ts";
import { LooseImplementationSchema } from "../protocol/primitives.ts";
import { DiscoverResultSchema } from "../protocol/results.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import type { CheckContext } from "./context.ts";
import { eraOfDiscover } from "./era/index.ts";
import { cacheHintProblem, described } from "./expect.ts";
import { SIGN_IN_FIX } from "./fixes.ts";

/** `server/discover`: whether the server speaks 2026-07-28, and what it says about itself. */
export async function discoverChecks(ctx: CheckContext): Promise<void> {
  const exchange = await ctx.probe.modern("server/discover");
  const title = "server/discover answers with a valid result";
  ctx.era = eraOfDiscover(exchange);
  if (exchange.status !== 200 || !exchange.result) {
    const { status, detail } = ctx.era.discoverRefused(described(exchange));
    const fix = exchange.status === 401 ? SIGN_IN_FIX : undefined;
    ctx.record("discover", "discover.answers", title, status, detail, fix);
    return;
  }
  const parsed = DiscoverResultSchema.safeParse(exchange.result);
  if (!parsed.success) {
    ctx.record(
      "discover",
      "discover.answers",
      title,
      "fail",
      issuesLine(parsed.error, exchange.result),
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

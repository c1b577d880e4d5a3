import { issuesLine } from "../../zod-issues.ts";
import { Header } from "../../protocol/headers.ts";
import { InitializeResultSchema, ListToolsResultSchema } from "../../protocol/results.ts";
import { isHandshakeEraVersion } from "../../protocol/versions.ts";
import type { CheckContext } from "../context.ts";
import { described, failure } from "../expect.ts";
import { SIGN_IN_FIX } from "../fixes.ts";
import { INITIALIZE_PARAMS } from "./handshake.ts";

/** The 2025 handshake, and a 2025 client's first requests on the session it opens. */
export async function legacyChecks(ctx: CheckContext): Promise<void> {
  const title = "A 2025 client connects with initialize";
  const init = await ctx.probe.legacy("initialize", INITIALIZE_PARAMS, {});
  const parsed = InitializeResultSchema.safeParse(init.result);
  if (init.status !== 200 || !parsed.success) {
    const got =
      parsed.success || !init.result ? described(init) : issuesLine(parsed.error, init.result);
    const { status, detail } = ctx.era.handshakeRefused(got);
    const fix = init.status === 401 ? SIGN_IN_FIX : undefined;
    ctx.record("legacy", "legacy.initialize", title, status, detail, fix);
    return;
  }
  const result = parsed.data;
  const revealed = ctx.era.revealedByHandshake;
  if (revealed) {
    ctx.era = revealed;
    ctx.found.capabilities = result.capabilities;
    ctx.found.server = { name: result.serverInfo.name, version: result.serverInfo.version };
  }
  ctx.expect(
    "legacy",
    "legacy.initialize",
    title,
    isHandshakeEraVersion(result.protocolVersion)
      ? undefined
      : `initialize negotiated ${JSON.stringify(result.protocolVersion)}, not a 2025 revision`,
  );
  const session = init.headers.get(Header.sessionId);
  const headers: Record<string, string> = {
    [Header.protocolVersion]: result.protocolVersion,
    ...(session === null ? {} : { [Header.sessionId]: session }),
  };
  const initialized = await ctx.probe.legacy(
    "notifications/initialized",
    undefined,
    headers,
    false,
  );
  ctx.expect(
    "legacy",
    "legacy.initialized",
    "notifications/initialized is accepted with HTTP 202",
    initialized.status === 202 ? undefined : `got ${described(initialized)}`,
  );
  ctx.expect(
    "legacy",
    "legacy.ping",
    "ping answers on the session",
    failure(await ctx.probe.legacy("ping", {}, headers)),
  );
  if (result.capabilities.tools !== undefined) {
    const tools = await ctx.probe.legacy("tools/list", {}, headers);
    const listed = ListToolsResultSchema.safeParse(tools.result);
    ctx.expect(
      "legacy",
      "legacy.tools-list",
      "tools/list answers a 2025 client",
      failure(tools) ?? (listed.success ? undefined : issuesLine(listed.error, tools.result)),
    );
  }
  if (session !== null) await ctx.probe.raw("DELETE", headers);
}

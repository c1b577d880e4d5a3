import { Header } from "../protocol/headers.ts";
import type { CheckContext } from "./context.ts";
import { firstProblems } from "./expect.ts";
import { INITIALIZE_PARAMS } from "./era/handshake.ts";
import { httpHopProbe } from "./hop-probe-http.ts";
import { relayVerdict } from "./hop.ts";
import { checkHops } from "./hops.ts";

// What a browser client's requests carry besides the simple headers.
const REQUESTED = ["content-type", "mcp-protocol-version", "mcp-method", "mcp-name"];

function listed(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** What a browser would refuse in a preflight's answer. */
function preflightProblems(status: number, answer: Headers, origin: string): string[] {
  const allowOrigin = answer.get("Access-Control-Allow-Origin");
  const methods = listed(answer.get("Access-Control-Allow-Methods"));
  const headers = listed(answer.get("Access-Control-Allow-Headers"));
  const problems: string[] = [];
  if (status < 200 || status > 299) problems.push(`the preflight got HTTP ${status}`);
  if (allowOrigin !== origin && allowOrigin !== "*")
    problems.push(`Access-Control-Allow-Origin is ${JSON.stringify(allowOrigin)}`);
  if (!methods.includes("post") && !methods.includes("*"))
    problems.push("POST is not among the allowed methods");
  const missing = REQUESTED.filter((name) => !headers.includes(name) && !headers.includes("*"));
  if (missing.length) problems.push(`headers not allowed: ${missing.join(", ")}`);
  // A wildcard never covers Authorization: it must be named.
  if (!headers.includes("authorization"))
    problems.push("Authorization is not allowed, so browsers cannot send tokens");
  return problems;
}

/** Whether a browser page on `ctx.origin` may call the server: the preflight, then a POST. */
export async function corsChecks(ctx: CheckContext): Promise<void> {
  const preflightTitle = "A browser's preflight is allowed (origin, POST, the MCP headers)";
  const responseTitle = "Replies let the browser read them (Access-Control-Allow-Origin)";
  const origin = ctx.origin;
  if (origin === undefined) {
    const why = "no origin given (in a browser, the page's own fetches are the test)";
    ctx.record("cors", "cors.preflight", preflightTitle, "skip", why);
    ctx.record("cors", "cors.response", responseTitle, "skip", why);
    return;
  }
  const preflight = await ctx.probe.raw("OPTIONS", {
    Origin: origin,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": [...REQUESTED, "authorization"].join(", "),
  });
  const problems =
    preflight.status === 0
      ? [`the preflight got no reply: ${preflight.problem ?? "no reason given"}`]
      : preflightProblems(preflight.status, preflight.headers, origin);
  ctx.expect("cors", "cors.preflight", preflightTitle, firstProblems(problems, 5), "warn");

  const reply = await ctx.era.corsReply(ctx.probe, origin);
  const replyOrigin = reply.headers.get("Access-Control-Allow-Origin");
  const session = reply.headers.get(Header.sessionId);
  const exposed = listed(reply.headers.get("Access-Control-Expose-Headers"));
  const replyProblems: string[] = [];
  if (replyOrigin !== origin && replyOrigin !== "*")
    replyProblems.push(`Access-Control-Allow-Origin is ${JSON.stringify(replyOrigin)}`);
  if (session !== null && !exposed.includes(Header.sessionId.toLowerCase())) {
    replyProblems.push(
      `${Header.sessionId} is not in Access-Control-Expose-Headers, so browsers cannot keep the session`,
    );
  }
  ctx.expect("cors", "cors.response", responseTitle, firstProblems(replyProblems), "warn");
  if (session !== null)
    await ctx.probe.raw("DELETE", {
      [Header.sessionId]: session,
      [Header.protocolVersion]: INITIALIZE_PARAMS.protocolVersion,
    });
  if (ctx.hops) await hopChecks(ctx, origin);
}

/** Every hop a browser client on `origin` needs, as `hops.ts` checks them, each a CORS check. */
async function hopChecks(ctx: CheckContext, origin: string): Promise<void> {
  const { fetch, url, headers, timeoutMs } = ctx.probe.options;
  const custom = Object.keys(headers).filter((name) => name.toLowerCase() !== "authorization");
  const hops = await checkHops(httpHopProbe(fetch, origin, timeoutMs), url, origin, custom);
  for (const hop of hops)
    ctx.results.push({
      id: hop.rule,
      group: "cors",
      title: hop.title,
      status: hop.status === "fail" ? "warn" : hop.status,
      detail: hop.seen,
      ...(hop.status === "fail" ? { fix: `${hop.fix} ${relayVerdict(hop)}` } : {}),
    });
}

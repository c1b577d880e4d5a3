import { McpError } from "../../../shared/client/index.ts";
import { RelayRefused } from "../../../shared/relay.ts";
import { diagnose, relayOutcome } from "../lib/doctor.ts";
import { isRecord } from "../lib/json.ts";
import { readServerList, ServerListTooLarge } from "../lib/server-list.ts";
import { loadCatalog } from "./catalog.ts";
import {
  headerOrigin,
  headersForUrl,
  originOf,
  persistHeaders,
  restoreHeaders,
  switchHeaders,
} from "./credentials.ts";
import { gatherFacts } from "./doctor-probe.ts";
import { authWrapperFor, signInOffer } from "./sign-in.ts";
import { backgroundState, resetBackground, showBackgroundNotification } from "./background.ts";
import { dropPendingInputs } from "./inputs.ts";
import { closeAllListens } from "./listen.ts";
import { load, save } from "./persist.ts";
import {
  catalog,
  connecting,
  devTokens,
  diagnosis,
  endpoints,
  eraChoice,
  headerRows,
  notify,
  routeChoice,
  selectedKey,
  session,
  targetUrl,
  upstreamStatus,
  type EraChoice,
  type RouteChoice,
} from "./store.ts";
import { RouteError, routedClient } from "./route.ts";
import { forgetTasks } from "./tasks.ts";

const LAST = "edgemcp.connection";

/** How each era choice connects: the handshake it starts with, and whether it needs 2026-07-28. */
const CHOICES: Record<EraChoice, { handshake: "probe" | "initialize"; only2026: boolean }> = {
  auto: { handshake: "probe", only2026: false },
  modern: { handshake: "probe", only2026: true },
  legacy: { handshake: "initialize", only2026: false },
};
const isEraChoice = (v: unknown): v is EraChoice =>
  typeof v === "string" && Object.hasOwn(CHOICES, v);
const ROUTES: readonly RouteChoice[] = ["direct", "relay", "auto"];
const isLast = (v: unknown): v is { url: string; era: EraChoice; route?: RouteChoice } =>
  isRecord(v) &&
  typeof v.url === "string" &&
  isEraChoice(v.era) &&
  (v.route === undefined || ROUTES.some((r) => r === v.route));
/** The headers the person marked safe to put in links, by name. */
export function shareableHeaders(): string[] {
  return headerRows.value.filter((r) => r.shareable === true).map((r) => r.name.trim());
}

/**
 * The headers to send: every named row with a value (the client adds the protocol's own). A
 * row left blank, or holding only its scheme ("Bearer "), is a header still to be filled in.
 */
export function headerMap(): Record<string, string> {
  return Object.fromEntries(
    headerRows.value
      .filter(
        (r) =>
          r.name.trim() !== "" &&
          r.value.trim() !== "" &&
          !/^\s*(Bearer|Basic|Token|Digest)\s*$/i.test(r.value),
      )
      .map((r) => [r.name.trim(), r.value]),
  );
}

/** Restores the last endpoint and era, and the headers remembered for its origin. */
export function restoreConnection(): void {
  const last = load(LAST, undefined, isLast);
  if (last) {
    targetUrl.value = last.url;
    eraChoice.value = last.era;
    if (last.route) routeChoice.value = last.route;
  }
  restoreHeaders((last && originOf(last.url)) ?? location.origin);
}

/** Loads this Worker's MCP endpoints; the first becomes the default target. */
export async function loadEndpoints(): Promise<void> {
  try {
    const response = await fetch("/api/servers", { headers: { Accept: "application/json" } });
    const list = await readServerList(response);
    endpoints.value = list.endpoints;
    devTokens.value = list.devTokens;
  } catch (error) {
    // A Worker without the list (a static host of the page) offers no endpoints; a list past
    // its bound is said, as the page would otherwise seem to have none.
    endpoints.value = [];
    devTokens.value = [];
    if (error instanceof ServerListTooLarge) notify(error.message);
  }
  // A local Worker with the example tokens: act as the first of them on its own endpoints,
  // unless a token is set.
  const first = devTokens.value[0];
  if (
    first &&
    headerOrigin.value === location.origin &&
    !headerRows.value.some((row) => row.name.toLowerCase() === "authorization")
  )
    useDevToken(first.token);
  if (targetUrl.value === "" && endpoints.value[0])
    targetUrl.value = `${location.origin}${endpoints.value[0].path}`;
}

/**
 * Sends `Authorization: Bearer <token>` to this Worker's endpoints (undefined: no Authorization
 * header, anonymous); the dev tokens are this Worker's, so they join its origin's headers.
 */
export function useDevToken(token: string | undefined): void {
  switchHeaders(location.origin);
  const others = headerRows.value.filter((row) => row.name.toLowerCase() !== "authorization");
  headerRows.value = token
    ? [...others, { name: "Authorization", value: `Bearer ${token}` }]
    : others;
  persistHeaders();
}

/** The dev token the Authorization header holds, if it is one. */
export function currentDevToken(): string | undefined {
  if (headerOrigin.value !== location.origin) return undefined;
  const row = headerRows.value.find((r) => r.name.toLowerCase() === "authorization");
  return devTokens.value.find((t) => row?.value === `Bearer ${t.token}`)?.token;
}

export async function disconnect(): Promise<void> {
  const current = session.value;
  session.value = undefined;
  catalog.value = undefined;
  upstreamStatus.value = [];
  closeAllListens();
  resetBackground();
  forgetTasks();
  dropPendingInputs();
  await current?.client.close().catch(() => {});
}

/** Whether a failed connection was a 401, directly or through the relay. */
function asksSignIn(error: unknown): boolean {
  const tried = error instanceof RouteError ? [error.direct, error.relayed] : [error];
  return tried.some((e) => e instanceof McpError && e.status === 401);
}

/** The latest connection attempt: an earlier one still running is superseded by it. */
let attempt = 0;

/**
 * Connects to the target URL in the chosen era; a failure is explained by the connection
 * doctor. Asking for 2026-07-28 from a 2025-only server is refused with that diagnosis. When
 * another attempt starts meanwhile (the person picked another server while the page was still
 * connecting to the default one), this one steps aside: its client is closed, its failure is
 * not shown.
 */
export async function connectTo(
  url = targetUrl.value.trim(),
  era = eraChoice.value,
): Promise<boolean> {
  const mine = ++attempt;
  const choice = CHOICES[era];
  await disconnect();
  connecting.value = true;
  diagnosis.value = undefined;
  targetUrl.value = url;
  try {
    new URL(url);
  } catch {
    connecting.value = false;
    diagnosis.value = {
      kind: "other",
      title: "That is not a URL",
      detail: `"${url}" is not an absolute http(s) URL.`,
      actions: ["Enter a URL such as http://localhost:8787/mcp."],
      suggestions: [],
    };
    return false;
  }
  await headersForUrl(url);
  if (mine !== attempt) return false;
  try {
    const { client, route, routeNote } = await routedClient(url, {
      handshake: choice.handshake,
      headers: headerMap(),
      wrap: authWrapperFor(url),
      // A 2025 session's stream: only the latest attempt's news is shown.
      onNotification: (notification) => {
        if (mine === attempt) showBackgroundNotification(notification);
      },
      onBackgroundState: (state) => {
        if (mine === attempt) backgroundState.value = state;
      },
    });
    if (mine !== attempt) {
      await client.close().catch(() => {});
      return false;
    }
    if (choice.only2026 && client.eraTraits.handshake) {
      await client.close();
      diagnosis.value = diagnose({
        url,
        pageOrigin: location.origin,
        online: true,
        error: { kind: "protocol", message: "" },
        legacyOnly: true,
        endpoints: [],
      });
      return false;
    }
    const path =
      new URL(url).origin === location.origin
        ? new URL(url).pathname.replace(/\/$/, "")
        : undefined;
    const upstreams = endpoints.value.find((e) => e.path === path)?.upstreams ?? [];
    session.value = {
      client,
      url,
      era,
      description: client.server,
      connectedAt: Date.now(),
      upstreams,
      route,
      ...(routeNote ? { routeNote } : {}),
    };
    if (signInOffer.value === url) signInOffer.value = undefined;
    save(LAST, { url, era, route: routeChoice.value });
    if (selectedKey.value?.startsWith("permalink:")) selectedKey.value = undefined;
    await loadCatalog("use");
    return true;
  } catch (error) {
    const custom = Object.keys(headerMap()).filter(
      (name) => name.toLowerCase() !== "authorization",
    );
    const facts = await gatherFacts(
      url,
      error instanceof RouteError ? error.direct : error,
      custom,
    );
    if (error instanceof RouteError) Object.assign(facts, relayOutcome(error.relayed));
    // The relay route: only the relay's own refusal is news (the server's answer is the error).
    else if (error instanceof Error && error.cause instanceof RelayRefused)
      Object.assign(facts, relayOutcome(error));
    facts.route = routeChoice.value;
    if (mine === attempt) {
      diagnosis.value = diagnose(facts);
      signInOffer.value = asksSignIn(error) ? url : undefined;
    }
    return false;
  } finally {
    if (mine === attempt) connecting.value = false;
  }
}

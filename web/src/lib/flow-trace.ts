import { isSecretHeader } from "../../../shared/secret-headers.ts";
import { maskValue } from "./secrets.ts";

/** One HTTP request a sign-in step sent, and what came back (bodies as text, bounded). */
export type FlowExchange = {
  method: string;
  url: string;
  /** How it went: straight from the page, or through this Worker's relay (no CORS there). */
  via: "direct" | "relay";
  requestHeaders: [string, string][];
  requestBody: string;
  status?: number;
  responseHeaders: [string, string][];
  responseBody: string;
  /** Why no answer came (the network, CORS, the relay's refusal). */
  error?: string;
};

/** The steps a flow view lists, in the order a sign-in runs them. */
export const FLOW_STEPS = {
  challenge: "The 401",
  "resource-metadata": "Protected resource metadata",
  "server-metadata": "Authorization server metadata",
  client: "Client identity",
  pkce: "PKCE",
  authorization: "Authorization request",
  callback: "Callback",
  token: "Token request",
  refresh: "Token refresh",
  retry: "Authenticated retry",
} as const;
export type FlowStepName = keyof typeof FLOW_STEPS;

/** One step as the flow view shows it: what happened, the rule checked, its requests. */
export type FlowStep = {
  name: FlowStepName;
  status: "ok" | "failed" | "skipped";
  summary: string;
  rule?: string;
  /** On failure: what the server's owner must change, when the error says. */
  fix?: string;
  /** A URL the step is about without a request of its own (the authorization page). */
  url?: string;
  exchanges: FlowExchange[];
};

/** A whole sign-in as the flow view keeps it (in memory only). */
export type FlowTrace = { server: string; startedAt: number; steps: FlowStep[] };

// Parameters and members that carry credentials: masked wherever they appear.
const SECRET_KEYS = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "code",
  "code_verifier",
  "client_secret",
  "token",
  "registration_access_token",
]);
const MASK = "••••••";

function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      SECRET_KEYS.has(key) && typeof member === "string" ? MASK : maskJson(member),
    ]),
  );
}

function maskParams(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const [key, value] of params) out.append(key, SECRET_KEYS.has(key) ? MASK : value);
  return out.toString().replaceAll(encodeURIComponent(MASK), MASK);
}

/** A body with its secrets masked: JSON members or form parameters named like credentials. */
export function maskBody(body: string): string {
  if (body === "") return body;
  try {
    return JSON.stringify(maskJson(JSON.parse(body)), null, 2);
  } catch {
    return /^[\w.~%+-]+=[^\s]*$/.test(body) ? maskParams(new URLSearchParams(body)) : body;
  }
}

/** A URL with credential parameters (`code`, tokens) masked. */
export function maskUrl(text: string): string {
  try {
    const url = new URL(text);
    if (![...url.searchParams.keys()].some((key) => SECRET_KEYS.has(key))) return text;
    return `${url.origin}${url.pathname}?${maskParams(url.searchParams)}`;
  } catch {
    return text;
  }
}

const headersOut = (headers: [string, string][], reveal: boolean) =>
  headers.map(([name, value]): [string, string] => [
    name,
    !reveal && isSecretHeader(name) ? maskValue(value) : value,
  ]);

/** The trace as it is shown, copied or exported: secrets masked unless `reveal`. */
export function shownTrace(trace: FlowTrace, reveal: boolean): FlowTrace {
  if (reveal) return trace;
  return {
    ...trace,
    steps: trace.steps.map((step) => ({
      ...step,
      ...(step.url ? { url: maskUrl(step.url) } : {}),
      exchanges: step.exchanges.map((x) => ({
        ...x,
        url: maskUrl(x.url),
        requestHeaders: headersOut(x.requestHeaders, false),
        requestBody: maskBody(x.requestBody),
        responseHeaders: headersOut(x.responseHeaders, false),
        responseBody: maskBody(x.responseBody),
      })),
    })),
  };
}

/** The trace as plain text, one numbered step after another with its requests. */
export function traceText(trace: FlowTrace, reveal = false): string {
  const shown = shownTrace(trace, reveal);
  const lines = [`Sign-in to ${shown.server} (${new Date(shown.startedAt).toISOString()})`];
  shown.steps.forEach((step, index) => {
    lines.push("", `${index + 1}. ${FLOW_STEPS[step.name]}: ${step.status}`);
    lines.push(`   ${step.summary}`);
    if (step.rule) lines.push(`   Rule: ${step.rule}`);
    if (step.fix) lines.push(`   To fix: ${step.fix}`);
    if (step.url) lines.push(`   URL: ${step.url}`);
    for (const x of step.exchanges) {
      const via = x.via === "relay" ? " (through the relay)" : "";
      lines.push(`   > ${x.method} ${x.url}${via}`);
      for (const [name, value] of x.requestHeaders) lines.push(`   > ${name}: ${value}`);
      if (x.requestBody) lines.push(indent(x.requestBody, "   > "));
      if (x.error) lines.push(`   < no answer: ${x.error}`);
      else lines.push(`   < HTTP ${x.status ?? "?"}`);
      for (const [name, value] of x.responseHeaders) lines.push(`   < ${name}: ${value}`);
      if (x.responseBody) lines.push(indent(x.responseBody, "   < "));
    }
  });
  return lines.join("\n") + "\n";
}

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");

/** The trace as JSON, secrets masked unless `reveal`. */
export function traceJson(trace: FlowTrace, reveal = false): string {
  return JSON.stringify(shownTrace(trace, reveal), null, 2) + "\n";
}

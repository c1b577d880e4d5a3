import { computed, signal } from "@preact/signals";
import type {
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  McpClient,
  Reply,
  ServerDescription,
} from "../../../shared/client/index.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Item, UpstreamHealth } from "../lib/catalog-view.ts";
import type { Diagnosis } from "../lib/doctor.ts";
import type { Handle } from "../lib/wallet.ts";
import type { DevToken, Endpoint } from "../lib/server-list.ts";
export type { DevToken, Endpoint } from "../lib/server-list.ts";

/** Which era to speak: find out, 2026-07-28 only, or 2025 (initialize) only. */
export type EraChoice = "auto" | "modern" | "legacy";

/**
 * How the page reaches a server: straight from the browser, through this Worker's relay (for
 * servers that do not allow this page with CORS), or directly first and through the relay when
 * CORS or the server's Origin check stops the direct attempt.
 */
export type RouteChoice = "direct" | "relay" | "auto";

/** A header the user set for the connection. */
export type HeaderRow = {
  name: string;
  value: string;
  /** The person marked its value safe to put in links to requests (no other value goes there). */
  shareable?: boolean;
};

/** An MCP endpoint of this Worker, from `/api/servers`. */

/** The live connection: the client and what the server said about itself. */
export type Session = {
  client: McpClient;
  url: string;
  era: EraChoice;
  description: ServerDescription;
  connectedAt: number;
  /** The endpoint's upstreams when it is this Worker's hub. */
  upstreams: string[];
  /** How the page reaches it, and why, when Auto chose the relay. */
  route: "direct" | "relay";
  routeNote?: string;
};

/** The catalog, each list with where it came from (network or cache) and its freshness. */
export type Catalog = {
  tools?: Reply<ListToolsResult>;
  prompts?: Reply<ListPromptsResult>;
  resources?: Reply<ListResourcesResult>;
  templates?: Reply<ListResourceTemplatesResult>;
  errors: string[];
  loadedAt: number;
};

export type Pane = "wire" | "history" | "listen" | "tasks" | "logs" | "server";

// Connection inputs.
export const endpoints = signal<Endpoint[]>([]);

/** The published development tokens `/api/servers` offers on localhost (`.dev.vars.example`). */
export const devTokens = signal<DevToken[]>([]);
export const targetUrl = signal("");
export const eraChoice = signal<EraChoice>("auto");
export const routeChoice = signal<RouteChoice>("auto");
export const headerRows = signal<HeaderRow[]>([]);
export const rememberHeaders = signal(false);

// Connection state.
export const session = signal<Session | undefined>(undefined);
export const connecting = signal(false);
export const diagnosis = signal<Diagnosis | undefined>(undefined);

// Catalog and selection.
export const catalog = signal<Catalog | undefined>(undefined);
export const catalogLoading = signal(false);
export const query = signal("");
export const selectedKey = signal<string | undefined>(undefined);
/** The selection that shows the "Check this server" view instead of a catalog entry. */
export const CHECK_KEY = "check:server";
/** A hub's upstreams, as its status resource reports them (empty for other servers). */
export const upstreamStatus = signal<UpstreamHealth[]>([]);

// The request being composed: arguments by item key, so switching items keeps each one's draft.
export const drafts = signal<Record<string, unknown>>({});

// Panes and overlays.
export const pane = signal<Pane>("server");
export const paletteOpen = signal(false);
export const headersOpen = signal(false);
export const toast = signal<string | undefined>(undefined);
export const theme = signal<"light" | "dark">("light");
export const narrowSidebarOpen = signal(false);

// Settings that shape requests.
export const logLevel = signal<LogLevel | "">("");
export const timeoutSeconds = signal(60);
export const roots = signal<{ uri: string; name?: string }[]>([
  { uri: "file:///workspace", name: "workspace" },
]);
export const wallet = signal<Handle[]>([]);

/** Every catalog entry, in list order. */
export const items = computed<Item[]>(() => {
  const c = catalog.value;
  if (!c) return [];
  return [
    ...(c.tools?.result.tools ?? []).map((item) => ({
      kind: "tool" as const,
      key: `tool:${item.name}`,
      item,
    })),
    ...(c.prompts?.result.prompts ?? []).map((item) => ({
      kind: "prompt" as const,
      key: `prompt:${item.name}`,
      item,
    })),
    ...(c.resources?.result.resources ?? []).map((item) => ({
      kind: "resource" as const,
      key: `resource:${item.uri}`,
      item,
    })),
    ...(c.templates?.result.resourceTemplates ?? []).map((item) => ({
      kind: "template" as const,
      key: `template:${item.uriTemplate}`,
      item,
    })),
  ];
});

export const selected = computed(() => items.value.find((i) => i.key === selectedKey.value));

/** Shows a short message at the bottom of the page for a few seconds. */
export function notify(message: string): void {
  toast.value = message;
  setTimeout(() => {
    if (toast.value === message) toast.value = undefined;
  }, 3500);
}

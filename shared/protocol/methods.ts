/** Client requests of the 2026-07-28 revision that edgemcp serves. */
export const MODERN_METHODS = [
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "subscriptions/listen",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
] as const;
export type ModernMethod = (typeof MODERN_METHODS)[number];

/** Requests that only handshake-era (2025) clients send. */
export const LEGACY_ONLY_METHODS = [
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
] as const;
export type LegacyOnlyMethod = (typeof LEGACY_ONLY_METHODS)[number];

export type LegacyMethod =
  | Exclude<ModernMethod, "server/discover" | "subscriptions/listen" | `tasks/${string}`>
  | LegacyOnlyMethod;

/** Which params member the `Mcp-Name` header mirrors, per method. */
export const NAME_PARAM: Readonly<Record<string, "name" | "uri" | "taskId">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

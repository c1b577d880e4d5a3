import type { JsonObject } from "../protocol/messages.ts";
import type { LogLevel } from "../protocol/meta.ts";
import type { ListenNotification } from "../protocol/notifications.ts";
import { ClientCaches } from "./caches.ts";
import type { Connection } from "./connection.ts";
import type { ServerDescription } from "./description.ts";
import { exchange } from "./exchange.ts";
import type { RequestOptions } from "./options.ts";
import { ToolIndex } from "./tool-index.ts";
import type { ErrorContext } from "./transport.ts";

/** The client-wide limits and defaults, resolved from the options once. */
export type Settings = {
  maxInputRounds: number;
  maxPages: number;
  logLevel: LogLevel | undefined;
  warn: (message: string) => void;
};

/** The state one client's operations share: connection, caches, known tools and settings. */
export class ClientCore {
  readonly caches = new ClientCaches();
  readonly tools = new ToolIndex();
  private legacyLevel: LogLevel | undefined;

  constructor(
    readonly conn: Connection,
    readonly settings: Settings,
    public description: ServerDescription,
  ) {}

  context(method: string): ErrorContext {
    return { era: this.conn.era, method };
  }

  /** Sends one request with the client's defaults (log level) and returns its raw result. */
  async send(
    method: string,
    params: JsonObject,
    options: RequestOptions,
    paramHeaders?: Readonly<Record<string, string>>,
  ): Promise<JsonObject> {
    const logLevel = options.logLevel ?? this.settings.logLevel;
    if (this.conn.era === "legacy" && logLevel !== undefined) {
      await this.setLegacyLevel(logLevel, options.signal);
    }
    return exchange(this.conn, {
      ...options,
      ...(logLevel === undefined ? {} : { logLevel }),
      method,
      params,
      ...(paramHeaders ? { paramHeaders } : {}),
    });
  }

  /** 2025 servers take the level once per session through `logging/setLevel`. */
  private async setLegacyLevel(level: LogLevel, signal: AbortSignal | undefined): Promise<void> {
    if (level === this.legacyLevel || !this.description.capabilities.logging) return;
    await exchange(this.conn, {
      method: "logging/setLevel",
      params: { level },
      ...(signal ? { signal } : {}),
    });
    this.legacyLevel = level;
  }

  /** Applies what a listen stream reports to the caches and the tool index. */
  observe(notification: ListenNotification): void {
    this.caches.invalidate(notification);
    if (notification.method === "notifications/tools/list_changed") this.tools.reset();
  }
}

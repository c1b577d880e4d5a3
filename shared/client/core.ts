import type { JsonObject } from "../protocol/messages.ts";
import type { LogLevel } from "../protocol/meta.ts";
import type { ListenNotification } from "../protocol/notifications.ts";
import { ClientCaches } from "./cache.ts";
import type { Connection } from "./connection.ts";
import type { ServerDescription } from "./description.ts";
import type { ClientEra } from "./era/era.ts";
import type { ErrorContext } from "./errors.ts";
import { exchange } from "./exchange.ts";
import type { RequestOptions } from "./options.ts";
import { ToolIndex } from "./tool-index.ts";

/** The client-wide limits and defaults, resolved from the options once. */
export type Settings = {
  maxInputRounds: number;
  maxPages: number;
  logLevel: LogLevel | undefined;
  warn: (message: string) => void;
};

/** The state one client's operations share: connection, era, caches, known tools, settings. */
export class ClientCore {
  readonly caches = new ClientCaches();
  readonly tools = new ToolIndex();

  constructor(
    readonly conn: Connection,
    readonly era: ClientEra,
    readonly settings: Settings,
    public description: ServerDescription,
  ) {}

  context(method: string): ErrorContext {
    return { era: this.era.name, method };
  }

  /** Sends one request with the client's defaults (log level) and returns its raw result. */
  async send(
    method: string,
    params: JsonObject,
    options: RequestOptions,
    paramHeaders?: Readonly<Record<string, string>>,
  ): Promise<JsonObject> {
    const logLevel = options.logLevel ?? this.settings.logLevel;
    if (logLevel !== undefined) {
      const serverLogs = Boolean(this.description.capabilities.logging);
      await this.era.setLogLevel(this.conn, logLevel, serverLogs, options.signal);
    }
    return exchange(this.conn, this.era, {
      ...options,
      ...(logLevel === undefined ? {} : { logLevel }),
      method,
      params,
      ...(paramHeaders ? { paramHeaders } : {}),
    });
  }

  /** Applies what a listen stream reports to the caches and the tool index. */
  observe(notification: ListenNotification): void {
    this.caches.invalidate(notification);
    if (notification.method === "notifications/tools/list_changed") this.tools.reset();
  }
}

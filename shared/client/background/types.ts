import type { JsonObject } from "../../protocol/messages.ts";

/** A notification the server sent outside any call (on the 2025 background stream). */
export type ServerNotification = { method: string; params: JsonObject | undefined };

/**
 * Where a 2025 session's background stream stands: `unsupported` when the server answers the
 * GET with 405 (it offers none), `failed` when it refused it otherwise or reconnecting gave up.
 */
export type BackgroundStatus =
  "connecting" | "open" | "reconnecting" | "unsupported" | "closed" | "failed";

/** The stream's status, and why, in words, when it is not open. */
export type BackgroundState = { status: BackgroundStatus; detail?: string };

/** Where a background stream's notifications and changes of state go. */
export type BackgroundSink = {
  onNotification: (notification: ServerNotification) => void;
  onState: (state: BackgroundState) => void;
};

import { subscribedUris, toggleSubscription } from "../../state/background.ts";
import { notify, session } from "../../state/store.ts";

/**
 * Subscribing to a resource's updates on a 2025 server that offers it (`resources/subscribe`):
 * the updates arrive on the session stream and show in the Listen pane, as listen ones do.
 */
export function ResourceSubscribe({ uri }: { uri: string }) {
  const current = session.value;
  if (!current?.client.eraTraits.handshake) return null;
  if (current.description.capabilities.resources?.subscribe !== true) return null;
  const subscribed = subscribedUris.value.includes(uri);
  return (
    <p class="resource-subscribe">
      <button
        type="button"
        onClick={() =>
          void toggleSubscription(uri).catch((error: unknown) =>
            notify(error instanceof Error ? error.message : String(error)),
          )
        }
      >
        {subscribed ? "Unsubscribe" : "Subscribe to updates"}
      </button>{" "}
      <span class="muted small">
        {subscribed
          ? "Subscribed: updates arrive in the Listen pane."
          : "The server sends updates of this resource on the session stream."}
      </span>
    </p>
  );
}

import { openedLink } from "../../state/permalink.ts";
import { headersOpen } from "../../state/store.ts";

/** Says that the page was opened from a link, ready to send, and which secrets it needs. */
export function Permalinked() {
  const link = openedLink.value;
  if (link === undefined) return null;
  if (typeof link === "string")
    return (
      <p class="banner error" role="alert">
        {link}
      </p>
    );
  return (
    <div class="banner info" role="status">
      Opened from a link:{" "}
      <strong>
        {link.kind} {link.name}
      </strong>{" "}
      on <code class="break">{link.url}</code>, ready to send.
      {link.secretHeaders?.length ? (
        <>
          {" "}
          It needs {link.secretHeaders.join(", ")}, which links never carry:{" "}
          <button type="button" class="link-button" onClick={() => (headersOpen.value = true)}>
            fill in the headers
          </button>{" "}
          and reconnect.
        </>
      ) : null}
      <button
        type="button"
        class="link-button right"
        onClick={() => (openedLink.value = undefined)}
      >
        Dismiss
      </button>
    </div>
  );
}

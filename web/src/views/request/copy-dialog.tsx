import { useEffect, useRef, useState } from "preact/hooks";
import { toCurl, toFetch } from "../../lib/curl.ts";
import { copying, copyText } from "../../state/copy.ts";

/** Shows a request as curl or fetch, secrets masked unless the user reveals them, ready to copy. */
export function CopyDialog() {
  const request = copying.value;
  const [format, setFormat] = useState<"curl" | "fetch">("curl");
  const [reveal, setReveal] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (request && !ref.current?.open) ref.current?.showModal();
    if (!request) ref.current?.close();
  }, [request]);
  if (!request) return <dialog ref={ref} />;
  const text =
    format === "curl"
      ? toCurl(request, { revealSecrets: reveal })
      : toFetch(request, { revealSecrets: reveal });
  return (
    <dialog
      ref={ref}
      class="copy-dialog"
      aria-labelledby="copy-title"
      onClose={() => (copying.value = undefined)}
    >
      <h2 id="copy-title">Copy the request</h2>
      <div class="tabs" role="tablist" aria-label="Format">
        {(["curl", "fetch"] as const).map((f) => (
          <button
            key={f}
            type="button"
            role="tab"
            aria-selected={format === f}
            class={format === f ? "tab active" : "tab"}
            onClick={() => setFormat(f)}
          >
            {f === "curl" ? "curl" : "fetch (JavaScript)"}
          </button>
        ))}
      </div>
      <label class="checkbox-line">
        <input
          type="checkbox"
          checked={reveal}
          onChange={(e) => setReveal(e.currentTarget.checked)}
        />{" "}
        include secrets (Authorization and other credentials)
      </label>
      <pre class="code copy-text" tabIndex={0} aria-label={`${format} command`}>
        {text}
      </pre>
      <div class="button-row">
        <button
          type="button"
          class="primary"
          onClick={() =>
            void copyText(text, format === "curl" ? "the curl command" : "the fetch call")
          }
        >
          Copy
        </button>
        <button type="button" onClick={() => (copying.value = undefined)}>
          Close
        </button>
      </div>
    </dialog>
  );
}

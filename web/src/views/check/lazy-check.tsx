import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";

// The check view and shared/check's probes load on first use, outside the first screen's budget.
let loading: Promise<FunctionComponent> | undefined;

/** The "Check this server" view, fetched from the Worker when first opened. */
export function LazyCheckView() {
  const [view, setView] = useState<{ View: FunctionComponent } | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  useEffect(() => {
    loading ??= import("./check-view.tsx").then((m) => m.CheckView);
    loading.then(
      (View) => setView({ View }),
      (error: unknown) => {
        loading = undefined;
        setFailed(error instanceof Error ? error.message : String(error));
      },
    );
  }, []);
  if (failed)
    return (
      <p class="banner error" role="alert">
        The check view could not load ({failed}). Reload the page and try again.
      </p>
    );
  if (!view) return <p class="muted pad">Loading the checks…</p>;
  return <view.View />;
}

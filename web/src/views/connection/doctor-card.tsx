import { hopLine } from "../../lib/doctor.ts";
import { connectTo } from "../../state/connection.ts";
import { diagnosis, pane, routeChoice, targetUrl } from "../../state/store.ts";
import { addBearer } from "../../state/headers.ts";

/** The connection doctor's verdict: what happened, what to do, and endpoints to try instead. */
export function DoctorCard() {
  const d = diagnosis.value;
  if (!d) return null;
  return (
    <section class="doctor" role="alert" aria-labelledby="doctor-title" data-kind={d.kind}>
      <h2 id="doctor-title">{d.title}</h2>
      <p>{d.detail}</p>
      {d.wwwAuthenticate ? (
        <p>
          The server says how to authenticate (<code>WWW-Authenticate</code>):{" "}
          <code class="break">{d.wwwAuthenticate}</code>
        </p>
      ) : null}
      <h3>What to do</h3>
      <ul>
        {d.actions.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ul>
      {d.hops ? (
        <>
          <h3>Every hop a browser client needs</h3>
          <ul class="hops">
            {d.hops.map((hop) => (
              <li key={hop.rule} data-status={hop.status} data-rule={hop.rule}>
                {hopLine(hop)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {d.suggestions.length > 0 ? (
        <>
          <h3>{d.guessed ? "Worth trying" : "Endpoints that answer here"}</h3>
          <ul class="suggestions-list">
            {d.suggestions.map((url) => (
              <li key={url}>
                <button type="button" class="link-button" onClick={() => void connectTo(url)}>
                  {url}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div class="button-row">
        <button type="button" onClick={() => void connectTo(targetUrl.value)}>
          Try again
        </button>
        {d.offerRelay ? (
          <button
            type="button"
            class="primary"
            onClick={() => {
              routeChoice.value = "relay";
              void connectTo(targetUrl.value);
            }}
          >
            Connect through this Worker's relay
          </button>
        ) : null}
        {d.kind === "auth" ? (
          <button type="button" onClick={addBearer}>
            Add a Bearer token
          </button>
        ) : null}
        <button type="button" onClick={() => (pane.value = "wire")}>
          See the wire
        </button>
        <button type="button" class="link-button" onClick={() => (diagnosis.value = undefined)}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

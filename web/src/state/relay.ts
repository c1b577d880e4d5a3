import type { FetchLike } from "../../../shared/client/index.ts";
import { pageTokens, relayFetch } from "../../../shared/relay.ts";
import { devTokens } from "./store.ts";
import { recordingFetch } from "./recording-fetch.ts";

/**
 * This page's token for the Worker's relay, asked for once (again when refused). A Worker with
 * credentials configured requires them for the relay too: locally the example token it offers
 * the page, which is what `npm start` has.
 */
const tokens = pageTokens(`${location.origin}/relay/token`, () => {
  const first = devTokens.value[0];
  return first ? `Bearer ${first.token}` : undefined;
});

/** A recording fetch that goes through this Worker's relay; the wire view shows both legs. */
export function relayedFetch(): FetchLike {
  const relayUrl = `${location.origin}/relay`;
  return recordingFetch(relayFetch({ relayUrl, token: tokens }), { relayUrl });
}

/** The relay alone, unrecorded: the sign-in's OAuth requests keep their own trace. */
export function relayOnly(): FetchLike {
  return relayFetch({ relayUrl: `${location.origin}/relay`, token: tokens });
}

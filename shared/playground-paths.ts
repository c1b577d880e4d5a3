/**
 * Paths of the playground on the Worker's origin that both sides name: the page sends an
 * authorization server its client metadata document's URL and its callback, and the Worker
 * serves the one and lists the other in it.
 */
export const PLAYGROUND_CLIENT_PATH = "/api/playground-client";
export const PLAYGROUND_CALLBACK_PATH = "/sign-in/callback";

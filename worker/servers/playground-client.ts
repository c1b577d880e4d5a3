import { PLAYGROUND_CALLBACK_PATH, PLAYGROUND_CLIENT_PATH } from "../../shared/playground-paths.ts";

/**
 * The playground's Client ID Metadata Document: deployed on https, the page names itself to an
 * authorization server with this URL as its `client_id`, and the server fetches this document
 * to learn its name and the one redirect URI it may send codes to (the page's callback). A
 * public client: no secret, PKCE instead.
 */
export function playgroundClient(origin: string): Record<string, unknown> {
  return {
    client_id: `${origin}${PLAYGROUND_CLIENT_PATH}`,
    client_name: "edgemcp playground",
    client_uri: `${origin}/`,
    redirect_uris: [`${origin}${PLAYGROUND_CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "web",
  };
}

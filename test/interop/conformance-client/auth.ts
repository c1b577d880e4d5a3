import { withAuth, type AuthOptions } from "../../../shared/client/auth/index.ts";
import type { FetchLike } from "../../../shared/client/index.ts";

/** The auth scenarios this client runs: the required ones, the 2025-03-26 ones and SEP drafts. */
export const AUTH_SCENARIOS = new Set([
  "auth/basic-cimd",
  "auth/basic-dcr",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
]);

/** The URL the suite's scenarios accept as this client's Client ID Metadata Document. */
const METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URI = "http://localhost:3000/callback";

/**
 * The suite's authorization servers grant at once: the "browser" is one GET whose redirect
 * carries the code back.
 */
async function followRedirect(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location)
    throw new Error(`The authorization endpoint answered ${response.status} without a redirect.`);
  return new URL(location, url).href;
}

/** The pre-registered client the suite hands over in MCP_CONFORMANCE_CONTEXT. */
function preRegistered(context: string | undefined): AuthOptions["client"] {
  if (!context) return undefined;
  const parsed: unknown = JSON.parse(context);
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { client_id, client_secret } = parsed as { client_id?: unknown; client_secret?: unknown };
  if (typeof client_id !== "string") return undefined;
  return { client_id, ...(typeof client_secret === "string" ? { client_secret } : {}) };
}

/** Sign-in options for one scenario, and the fetch that signs in. */
export function authOptions(
  server: string,
  scenario: string,
  context: string | undefined,
): { fetch: FetchLike } {
  const client = scenario === "auth/pre-registration" ? preRegistered(context) : undefined;
  const { fetch } = withAuth(server, {
    redirectUri: REDIRECT_URI,
    interact: ({ url }) => followRedirect(url),
    clientName: "edgemcp conformance client",
    clientMetadataUrl: METADATA_URL,
    ...(client ? { client } : {}),
    onEvent: (event) => console.log(`[${event.step}] ${event.status}: ${event.summary}`),
  });
  return { fetch };
}

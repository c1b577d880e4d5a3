import { join } from "node:path";
import { withAuth } from "../../shared/client/auth/index.ts";
import type { FetchLike } from "../../shared/client/index.ts";
import type { RequestHeaders } from "../options.ts";
import { configDir, fileStore } from "./file-store.ts";

/**
 * The fetch of call, list, check and stdio: the tokens `edgemcp login` kept for the server,
 * refreshed when they lapse. A command given its own Authorization header sends that instead.
 * Without kept tokens a server's 401 ends in an error that says to run `edgemcp login`.
 */
export function signedInFetch(
  url: URL,
  given: RequestHeaders,
  env: NodeJS.ProcessEnv,
  base: FetchLike,
): FetchLike {
  const explicit = Object.keys(given.headers).some(
    (name) => name.toLowerCase() === "authorization",
  );
  if (explicit) return base;
  return withAuth(url, {
    store: fileStore(configDir(env)),
    fetch: base,
    clientName: "edgemcp command line",
    signInHint: `run "edgemcp login ${url.href}" first`,
  }).fetch;
}

/** Where the tokens are, for messages. */
export const authFile = (env: NodeJS.ProcessEnv): string => join(configDir(env), "auth.json");

/**
 * The request headers for `check`, whose probes must go out as written: the given headers, or,
 * when they carry no Authorization, the kept token (refreshed if it lapsed) as one.
 */
export async function keptAuthorization(
  url: URL,
  given: RequestHeaders,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string>> {
  const explicit = Object.keys(given.headers).some(
    (name) => name.toLowerCase() === "authorization",
  );
  if (explicit) return given.headers;
  const { session } = withAuth(url, { store: fileStore(configDir(env)) });
  const token = await session.accessToken().catch(() => undefined);
  return token === undefined
    ? given.headers
    : { ...given.headers, Authorization: `Bearer ${token}` };
}

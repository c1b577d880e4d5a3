import { AuthError, type Authenticate, type Caller } from "../../auth/bearer.ts";
import type { BoundCoordination } from "../ports.ts";
import { resourceMetadataUrl } from "./endpoint.ts";

/** The caller, failed credentials counted where the endpoint counts limits (not in-process calls). */
export function authenticated(
  authenticate: Authenticate,
  request: Request,
  env: Cloudflare.Env,
  { limits }: BoundCoordination,
  marked: string | undefined,
): Promise<Caller | undefined> | Caller | undefined {
  const inProcess = marked !== undefined;
  return limits
    ? limits.authenticate(authenticate, request, env, inProcess)
    : authenticate(request, env, { inProcess });
}

/** An AuthError's challenge names this endpoint's metadata document. */
export function withChallenge(error: unknown, request: { url: string }): unknown {
  if (!(error instanceof AuthError)) return error;
  return new AuthError(error.message, error.error, resourceMetadataUrl(request));
}

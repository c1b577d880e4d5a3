import type { AuthRequest, OAuthHelpers } from "@cloudflare/workers-oauth-provider";

/** Signing in through another provider: where to send the browser, and its way back. */
export type Upstream = {
  /** The provider's name on the consent page. */
  name: string;
  /** After consent: the redirect to the provider. */
  begin(
    request: Request,
    oauth: OAuthHelpers,
    approved: AuthRequest,
    headers: Headers,
  ): Promise<Response>;
  /** The provider's redirect back (`/oauth/callback`). */
  finish(request: Request, oauth: OAuthHelpers): Promise<Response>;
};

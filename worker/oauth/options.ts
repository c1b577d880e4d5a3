/** A user of the development login: who they sign in as, and the roles policy rules may name. */
export type DemoUser = { id: string; name: string; roles?: readonly string[] };

/** One MCP endpoint the authorization server issues tokens for. */
export type ProtectedEndpoint = {
  /** Its path on this Worker (`/mcp/notes`); the resource is the origin plus this path. */
  path: string;
  /** What the consent page calls it. */
  name: string;
  /**
   * The scopes every token for it carries (its RFC 9728 `scopes_supported`, what clients ask
   * for first). The consent page grants them whatever the client asked for, so policy rules on
   * extra scopes always have a baseline to tell a signed-in caller by.
   */
  baseline?: readonly string[];
};

/** How a Worker signs people in and issues tokens for its MCP endpoints. */
export type SignInOptions = {
  /** The endpoints that accept its tokens (each its own resource and audience). */
  endpoints: readonly ProtectedEndpoint[];
  /** Every scope it may grant, with the plain words the consent page shows for it. */
  scopes: Readonly<Record<string, string>>;
  /** The name of the service, on the sign-in page. */
  title?: string;
  /**
   * The development login's users (pick one, no password). Offered only on loopback hosts, or
   * when `OAUTH_DEV_LOGIN` is `"on"`: never silently in production.
   */
  demoUsers?: readonly DemoUser[];
  /** Access token lifetime, seconds (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, seconds (default 30 days). */
  refreshTokenTtlSeconds?: number;
  /**
   * For an MCP Worker whose authorization server is another Worker: the name of the service
   * binding to it. `fetch` then hands the authorization server's paths to that Worker unchanged
   * (URL included, so it serves as the issuer at this Worker's origin, and its tokens are for
   * these endpoints), and tokens are checked in the KV namespace both Workers bind as
   * `OAUTH_KV`. The other Worker runs `signIn` with the same endpoints, scopes and users.
   */
  authorizationServerBinding?: string;
};

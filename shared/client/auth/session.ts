import type { PendingSignIn } from "./authorize.ts";
import type { BearerChallenge } from "./challenge.ts";
import { FlowContext } from "./context.ts";
import { discover, discoverAhead, type Binding } from "./discover.ts";
import { AuthError } from "./errors.ts";
import { clientFor, grantTokens, resumeTokens, type GrantParts } from "./grant.ts";
import type { AuthOptions } from "./options.ts";
import { revokeTokens } from "./revoke.ts";
import {
  issuerKey,
  loadIssuer,
  loadServer,
  memoryStore,
  serverKey,
  type AuthStore,
  type TokenSet,
} from "./store.ts";
import { expired, refresh, unionScopes } from "./tokens.ts";

/**
 * Signs in to one MCP server and keeps its tokens: a 401 runs discovery, client identity and the
 * authorization code grant; expired tokens are refreshed; a 403 insufficient_scope asks for the
 * union of scopes. Tokens are kept per issuer and resource in the store.
 */
export class AuthSession {
  readonly server: URL;
  private readonly ctx: FlowContext;
  private readonly store: AuthStore;
  private binding: Binding | undefined;
  private tokens: TokenSet | undefined;
  /** The issuer the tokens came from. */
  private tokensFrom: string | undefined;
  private pending: Promise<void> | undefined;

  constructor(
    server: string | URL,
    readonly options: AuthOptions,
  ) {
    this.server = new URL(server);
    this.store = options.store ?? memoryStore();
    this.ctx = new FlowContext(
      options.fetch ?? ((url, init) => fetch(url, init)),
      options.onEvent,
      options.allowHttp ?? false,
    );
  }

  /** The access token to send now, refreshed first when it has lapsed; undefined when signed out. */
  async accessToken(): Promise<string | undefined> {
    await this.pending;
    if (!this.tokens) await this.restore();
    const tokens = this.tokens;
    if (!tokens || !expired(tokens)) return tokens?.access_token;
    if (!tokens.refresh_token) {
      // Dropped, so the 401 that follows signs in instead of seeming answered already.
      this.tokens = undefined;
      return undefined;
    }
    await this.serialize(() => this.tryRefresh());
    return this.tokens?.access_token;
  }

  /** Who the tokens are from, what they allow and until when, for a UI or the CLI. */
  status(): { issuer: string; scope?: string; expiresAt?: number } | undefined {
    if (!this.binding || !this.tokens) return undefined;
    return {
      issuer: this.binding.issuer,
      ...(this.tokens.scope ? { scope: this.tokens.scope } : {}),
      ...(this.tokens.expires_at === undefined ? {} : { expiresAt: this.tokens.expires_at }),
    };
  }

  /**
   * Answers a 401 to a request sent with `sent`: refresh when a refresh token is kept, else the
   * whole sign-in. When another request's sign-in already replaced that token, retrying is all.
   */
  unauthorized(challenge: BearerChallenge | undefined, sent?: string): Promise<void> {
    return this.serialize(async () => {
      if (this.replaced(sent)) return;
      await this.bind(challenge);
      if (this.tokens?.refresh_token && (await this.tryRefresh())) return;
      await this.signIn(
        this.options.scope ?? unionScopes(challenge?.scope) ?? this.binding?.scopesSupported,
      );
    });
  }

  /** Answers a 403 insufficient_scope: signs in again for the scopes held plus those asked. */
  stepUp(challenge: BearerChallenge, sent?: string): Promise<void> {
    return this.serialize(async () => {
      if (this.replaced(sent)) return;
      if (!this.binding) await this.bind(challenge);
      await this.signIn(unionScopes(this.tokens?.scope, challenge.scope));
    });
  }

  /**
   * Signs in now, before any 401 (what `edgemcp login` asks), when the server publishes
   * protected resource metadata: servers whose reads are open ask for sign-in only on a write.
   * False when it publishes none, which leaves sign-in to a 401 (a 2025-03-26 server, or none).
   */
  signInAhead(): Promise<boolean> {
    let found = false;
    return this.serialize(async () => {
      const binding = await discoverAhead(this.ctx, this.server);
      if (!binding) return;
      found = true;
      await this.adopt(binding);
      await this.signIn(this.options.scope ?? binding.scopesSupported);
    }).then(() => found);
  }

  /**
   * Finishes a sign-in this session's page started before it left for the authorization page
   * (a redirect where popups are blocked): `returned` is the callback URL it came back with.
   */
  resume(pending: PendingSignIn, returned: URL | string): Promise<void> {
    return this.serialize(async () => {
      if (pending.server !== this.server.href)
        throw new AuthError(
          "callback",
          "MCP authorization",
          `The sign-in that came back was started for ${pending.server}, not for ${this.server.href}; it was not used.`,
        );
      await this.adopt(pending.binding);
      await this.keep(await resumeTokens(this.parts, pending, returned));
    });
  }

  /** True when the session holds a token other than the one a refused request carried. */
  private replaced(sent: string | undefined): boolean {
    const now = this.tokens?.access_token;
    return now !== undefined && now !== sent;
  }

  /**
   * Forgets this server's tokens (the client registration stays with its issuer); with `revoke`,
   * first revokes them where the authorization server offers revocation (RFC 7009). Resolves
   * with whether they were revoked there.
   */
  async signOut({ revoke = false }: { revoke?: boolean } = {}): Promise<{ revoked: boolean }> {
    await this.pending;
    let revoked = false;
    if (revoke && this.binding && this.tokens) {
      const { client } = await loadIssuer(this.store, this.binding.issuer);
      if (client) revoked = await revokeTokens(this.ctx, this.binding.as, client, this.tokens);
    }
    const known = this.binding?.issuer ?? (await loadServer(this.store, this.server.href))?.issuer;
    if (known) {
      const record = await loadIssuer(this.store, known);
      record.tokens = {};
      await this.store.save(issuerKey(known), record);
    }
    await this.store.save(serverKey(this.server.href), undefined);
    this.tokens = undefined;
    return { revoked };
  }

  private async serialize(work: () => Promise<unknown>): Promise<void> {
    while (this.pending) await this.pending.catch(() => {});
    const run = work().then(
      () => {},
      (error: unknown) => {
        this.ctx.failed(error);
        throw error;
      },
    );
    this.pending = run;
    try {
      await run;
    } finally {
      this.pending = undefined;
    }
  }

  /** Loads tokens kept for this server by an earlier session (the CLI's file). */
  private async restore(): Promise<void> {
    const kept = await loadServer(this.store, this.server.href);
    if (!kept) return;
    const record = await loadIssuer(this.store, kept.issuer);
    this.tokens = record.tokens[kept.resource];
    this.tokensFrom = kept.issuer;
  }

  /** Discovery: the resource metadata, then its authorization server's metadata. */
  private async bind(challenge: BearerChallenge | undefined): Promise<void> {
    await this.adopt(await discover(this.ctx, this.server, challenge));
  }

  /** Uses a server's binding, with the tokens kept for its issuer. */
  private async adopt(binding: Binding): Promise<void> {
    this.binding = binding;
    // Tokens and clients are kept per issuer: a server that moved to another one starts afresh.
    if (!this.tokens || this.tokensFrom !== binding.issuer) {
      const record = await loadIssuer(this.store, binding.issuer);
      this.tokens = record.tokens[this.tokenKey()];
      this.tokensFrom = binding.issuer;
    }
  }

  private tokenKey(): string {
    return this.binding?.resource ?? this.server.href;
  }

  private get parts(): GrantParts {
    return { ctx: this.ctx, options: this.options, store: this.store };
  }

  private async signIn(scope: string | undefined): Promise<void> {
    const binding = this.binding;
    if (!binding)
      throw new AuthError(
        "challenge",
        "MCP authorization",
        "Signing in needs the server's 401 first.",
      );
    await this.keep(await grantTokens(this.parts, this.server, binding, scope));
  }

  /** Refreshes; a refused refresh drops the tokens (a new sign-in follows). */
  private async tryRefresh(): Promise<boolean> {
    const tokens = this.tokens;
    if (!tokens?.refresh_token) return false;
    if (!this.binding) await this.bind(undefined);
    const binding = this.binding;
    if (!binding) return false;
    try {
      const client = await clientFor(this.parts, binding.as, false);
      await this.keep(
        await refresh(
          this.ctx,
          binding.as,
          client,
          { ...tokens, refresh_token: tokens.refresh_token },
          binding.resource,
        ),
      );
      return true;
    } catch (error) {
      // A refused refresh, or no client kept to refresh with: a new sign-in follows.
      if (!(error instanceof AuthError) || (error.step !== "refresh" && error.step !== "client"))
        throw error;
      this.ctx.failed(error);
      this.tokens = undefined;
      return false;
    }
  }

  private async keep(tokens: TokenSet): Promise<void> {
    const binding = this.binding;
    if (!binding) return;
    this.tokens = tokens;
    this.tokensFrom = binding.issuer;
    const record = await loadIssuer(this.store, binding.issuer);
    record.tokens[this.tokenKey()] = tokens;
    await this.store.save(issuerKey(binding.issuer), record);
    await this.store.save(serverKey(this.server.href), {
      issuer: binding.issuer,
      resource: this.tokenKey(),
    });
  }
}

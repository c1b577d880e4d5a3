import { BodyTooLarge, readLimited } from "../../http/body.ts";
import { HttpError } from "../../http/http-error.ts";
import { parseKeys, type Jwk } from "./settings.ts";

/** The most a JWK Set may weigh, and how long its fetch may take. */
const JWKS_MAX_BYTES = 256 * 1024;
const JWKS_TIMEOUT_MS = 5_000;
/** After an unknown `kid`, the JWK Set is fetched again at most this often (key rotation). */
const JWKS_REFETCH_MS = 30_000;
/** After a failed fetch, keys fetched earlier are used for at most this long. */
const JWKS_STALE_MS = 3_600_000;

const decoder = new TextDecoder();

/** A fetched JWK Set and when it was fetched; `pending` while a fetch runs. */
type JwksEntry = { keys: Jwk[]; fetchedAt: number; failedAt?: number; pending?: Promise<Jwk[]> };

/**
 * The JWK Sets this isolate fetched, by URL: fetched once per TTL, once more (at most every
 * 30 s) when a token names a key they lack, one fetch at a time; when the issuer cannot be
 * reached, keys fetched in the last hour stand in, and it is not asked again for 30 s (so a
 * blackholed issuer does not hold every request for the fetch timeout). A fetch runs in the
 * request that starts it; others wait for it (if that request's client leaves and the fetch is
 * cancelled, they answer 503 or use the keys they had, and the next request fetches again).
 */
export class JwksCache {
  private readonly entries = new Map<string, JwksEntry>();
  constructor(
    private readonly ttlMs: number,
    private readonly fetcher: typeof fetch,
  ) {}

  async keys(url: string, kid: string | undefined): Promise<readonly Jwk[]> {
    const entry = this.entries.get(url);
    const now = Date.now();
    const age = entry ? now - entry.fetchedAt : Infinity;
    const missing = kid !== undefined && !entry?.keys.some((key) => key.kid === kid);
    if (entry && age < this.ttlMs && !(missing && age >= JWKS_REFETCH_MS)) return entry.keys;
    const stale = () => {
      if (entry?.keys.length && age < JWKS_STALE_MS) return entry.keys;
      throw new HttpError(
        503,
        "The token issuer's signing keys cannot be fetched right now; try again shortly.",
        { "Retry-After": "5" },
      );
    };
    if (entry?.failedAt !== undefined && now - entry.failedAt < JWKS_REFETCH_MS) return stale();
    try {
      return await this.fetchOnce(url);
    } catch (error) {
      console.error(`JWT: fetching the JWK Set failed: ${String(error)}`);
      return stale();
    }
  }

  private fetchOnce(url: string): Promise<Jwk[]> {
    const entry = this.entries.get(url);
    if (entry?.pending) return entry.pending;
    const pending = (async () => {
      const response = await this.fetcher(url, {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(JWKS_TIMEOUT_MS),
        // A redirect could lead off https: the configured URL is the one trusted.
        redirect: "manual",
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      }
      const body = await readLimited(response, { maxBytes: JWKS_MAX_BYTES, deadlineMs: 0 }).catch(
        (error: unknown) => {
          // The reader speaks of request bodies; this is the issuer's answer.
          if (error instanceof BodyTooLarge)
            throw new Error(`the JWK Set is larger than ${JWKS_MAX_BYTES} bytes`);
          throw error;
        },
      );
      const keys = parseKeys(decoder.decode(body), "The JWK Set");
      this.entries.set(url, { keys, fetchedAt: Date.now() });
      return keys;
    })();
    this.entries.set(url, { keys: entry?.keys ?? [], fetchedAt: entry?.fetchedAt ?? 0, pending });
    pending.catch(() => {
      const current = this.entries.get(url);
      if (current?.pending === pending)
        this.entries.set(url, { ...current, pending: undefined, failedAt: Date.now() });
    });
    return pending;
  }
}

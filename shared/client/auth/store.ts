import * as z from "zod/mini";

/** A client identity an authorization server gave (or a pre-registered one). */
export const RegisteredClientSchema = z.object({
  client_id: z.string().check(z.minLength(1)),
  client_secret: z.optional(z.string()),
  token_endpoint_auth_method: z.optional(z.string()),
  redirect_uris: z.optional(z.array(z.string())),
});
export type RegisteredClient = z.infer<typeof RegisteredClientSchema>;

/** Tokens for one resource, with the absolute expiry (ms since the epoch) when one was given. */
export const TokenSetSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  refresh_token: z.optional(z.string()),
  expires_at: z.optional(z.number()),
  scope: z.optional(z.string()),
});
export type TokenSet = z.infer<typeof TokenSetSchema>;

/** What is kept per issuer: the client it registered and tokens by resource. */
export const IssuerRecordSchema = z.object({
  client: z.optional(RegisteredClientSchema),
  tokens: z._default(z.record(z.string(), TokenSetSchema), {}),
});
export type IssuerRecord = z.infer<typeof IssuerRecordSchema>;

/** What is kept per MCP server: which issuer and resource it signs in with. */
export const ServerRecordSchema = z.object({ issuer: z.string(), resource: z.string() });
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/**
 * Where sign-ins are kept: per issuer (client identity and tokens, never shared across issuers)
 * and per server URL (its issuer). Memory by default; the CLI keeps a file, the page memory or
 * session storage. Values come back as they were saved and are parsed again on load.
 */
export type AuthStore = {
  load(key: string): Promise<unknown>;
  save(key: string, value: unknown): Promise<void>;
};

/** The store's key for an issuer's record and for a server's. */
export const issuerKey = (issuer: string): string => `issuer:${issuer}`;
export const serverKey = (url: string): string => `server:${url}`;

/** A store in this object's memory, gone with it. */
export function memoryStore(): AuthStore {
  const values = new Map<string, unknown>();
  return {
    load: (key) => Promise.resolve(values.get(key)),
    save: (key, value) => {
      if (value === undefined) values.delete(key);
      else values.set(key, value);
      return Promise.resolve();
    },
  };
}

/** Loads an issuer's record; anything unreadable counts as nothing kept. */
export async function loadIssuer(store: AuthStore, issuer: string): Promise<IssuerRecord> {
  const parsed = IssuerRecordSchema.safeParse(await store.load(issuerKey(issuer)));
  return parsed.success ? parsed.data : { tokens: {} };
}

/** Loads which issuer a server signs in with, when known. */
export async function loadServer(store: AuthStore, url: string): Promise<ServerRecord | undefined> {
  const parsed = ServerRecordSchema.safeParse(await store.load(serverKey(url)));
  return parsed.success ? parsed.data : undefined;
}

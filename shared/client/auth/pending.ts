import type * as oauth from "oauth4webapi";
import * as z from "zod/mini";
import type { PendingSignIn } from "./authorize.ts";
import { RegisteredClientSchema } from "./store.ts";

// A pending sign-in read back from where a page kept it across its trip to the authorization
// page: checked field by field, since storage hands back whatever was written there.
const ServerMetadataSchema = z.looseObject({
  issuer: z.url(),
  authorization_endpoint: z.optional(z.url()),
  token_endpoint: z.optional(z.url()),
});

const PendingSignInSchema = z.object({
  server: z.url(),
  binding: z.object({
    issuer: z.url(),
    as: ServerMetadataSchema,
    resource: z.optional(z.string()),
    scopesSupported: z.optional(z.string()),
    legacy: z.boolean(),
  }),
  client: RegisteredClientSchema,
  redirectUri: z.url(),
  scope: z.optional(z.string()),
  verifier: z.string().check(z.minLength(43), z.maxLength(128)),
  state: z.string().check(z.minLength(1)),
});

/** A pending sign-in kept as JSON, or undefined when it is not one. */
export function readPendingSignIn(value: unknown): PendingSignIn | undefined {
  const parsed = PendingSignInSchema.safeParse(value);
  if (!parsed.success || parsed.data.binding.as.issuer !== parsed.data.binding.issuer)
    return undefined;
  const { binding, scope } = parsed.data;
  return {
    ...parsed.data,
    scope,
    binding: {
      ...binding,
      resource: binding.resource,
      scopesSupported: binding.scopesSupported,
      as: binding.as as unknown as oauth.AuthorizationServer,
    },
  };
}

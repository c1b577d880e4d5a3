import type * as z from "zod/mini";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { SealedPaging } from "./paging.ts";

/**
 * Explicit, sealed state for tool authors (`ctx.handles`, on a server that links `sealing`):
 * values that span calls travel as opaque strings bound to a purpose, the caller and an expiry.
 * For an anonymous caller a handle works as a bearer token.
 */
export interface Handles {
  /** Seals `data` (JSON) into a handle for `purpose`, valid for `ttlMs` (default 15 minutes). */
  seal(purpose: string, data: unknown, options?: { ttlMs?: number }): Promise<string>;
  /**
   * Opens a handle made by `seal` for the same purpose and caller, parsing its data with
   * `schema` when given. Throws a HandleError (an `isError` result in a tool) otherwise;
   * `renew` is appended to its message to tell the model what to do instead.
   */
  open(purpose: string, handle: string, options?: { renew?: string }): Promise<unknown>;
  open<T>(
    purpose: string,
    handle: string,
    options: { renew?: string; schema: z.core.$ZodType<T> },
  ): Promise<T>;
}

/** One request's sealing: the caller's handles, and the protocol fields sealed for it. */
export interface Seals extends Handles {
  /**
   * Opens a handle the runtime put in a protocol field (a list cursor, requestState): a
   * refusal there is the client's, -32602 with `renew` saying what to do, not a tool result.
   */
  openField(purpose: string, handle: string, renew: string): Promise<unknown>;
  /**
   * Paging with sealed cursors in an era's framing, which comes with sealing; without it
   * (`UNSEALED`) every list is one page.
   */
  readonly pages?: SealedPaging;
}

/**
 * Sealing: what seals handles, list cursors and requestState with the Worker's
 * `EDGEMCP_SECRET`. A server links it by naming it, `defineServer({ ..., sealing })` with
 * `sealing` from `edgemcp/server` (input rounds bring it along); without it none of that is
 * linked, and the server needs no secret.
 */
export interface Sealing {
  /**
   * The seals of one request of `server`'s caller `subject` ("" when anonymous). Throws when
   * the Worker's secrets are weak and the request is not `local` (to this machine).
   */
  seals(env: Cloudflare.Env, server: string, subject: string, local: boolean): Seals;
}

/** What a handler that seals on a server without sealing is told (a bug of the server's). */
const NOT_LINKED =
  'ctx.handles and list cursors need sealing, which this server did not link: import { sealing } from "edgemcp/server", add `sealing` to its defineServer({ ... }), and set EDGEMCP_SECRET.';

/**
 * The seals of a server without sealing. A handler that seals or opens a handle there is a bug
 * of the server's, not the client's: a plain error, logged with its message and answered as any
 * handler's failure is. A protocol field sent to it is a handle it never issued: -32602.
 */
export const UNSEALED: Seals = {
  seal: notLinked,
  open: notLinked,
  openField(purpose, _handle, renew) {
    return Promise.reject(
      new RpcError(
        ErrorCode.InvalidParams,
        `Invalid ${purpose}: this server seals nothing, so it issued none. ${renew}`,
      ),
    );
  },
};

function notLinked(): Promise<never> {
  return Promise.reject(new Error(NOT_LINKED));
}

import * as z from "zod/mini";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { HandleError, type Sealer } from "./sealer.ts";

/** Fifteen minutes (a literal, so unused it links nothing). */
const DEFAULT_TTL_MS = 900_000;

/**
 * Whom a handle is bound to: the server that sealed it and the caller's subject ("" when
 * anonymous), so neither another caller nor another server of the deployment can open it.
 */
export function handleOwner(server: string, subject: string | undefined): string {
  return `${server}\n${subject ?? ""}`;
}

/**
 * Explicit, sealed state for tool authors (`ctx.handles`): values that span calls travel as
 * opaque strings bound to a purpose, the caller and an expiry. For an anonymous caller the
 * subject is "", so a handle works as a bearer token. `openField` opens the runtime's own
 * (list cursors, requestState).
 */
export class SealedHandles {
  constructor(
    private readonly sealer: Sealer,
    private readonly subject: string,
  ) {}

  // What seal and open promise is written once, on the Handles interface they serve.
  seal(purpose: string, data: unknown, options: { ttlMs?: number } = {}): Promise<string> {
    return this.sealer.seal(purpose, this.subject, data, options.ttlMs ?? DEFAULT_TTL_MS);
  }

  open(purpose: string, handle: string, options?: { renew?: string }): Promise<unknown>;
  open<T>(
    purpose: string,
    handle: string,
    options: { renew?: string; schema: z.core.$ZodType<T> },
  ): Promise<T>;
  async open<T>(
    purpose: string,
    handle: string,
    options: { renew?: string; schema?: z.core.$ZodType<T> } = {},
  ): Promise<unknown> {
    const data = await this.sealer.open(purpose, this.subject, handle, options.renew);
    if (!options.schema) return data;
    const parsed = z.safeParse(options.schema, data);
    if (!parsed.success)
      throw new HandleError("invalid", `This ${purpose} handle holds data of an unexpected shape.`);
    return parsed.data;
  }

  /** Opens a handle carried in a protocol field: a refusal there is -32602, not a tool result. */
  async openField(purpose: string, handle: string, renew: string): Promise<unknown> {
    try {
      return await this.open(purpose, handle, { renew });
    } catch (error) {
      if (error instanceof HandleError)
        throw new RpcError(ErrorCode.InvalidParams, error.message, { problem: error.problem });
      throw error;
    }
  }
}

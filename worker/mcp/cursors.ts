import * as z from "zod/mini";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { openProtocolHandle } from "../state/handles.ts";
import type { Sealer } from "../state/sealer.ts";

const PURPOSE = "cursor";
const TTL_MS = 60 * 60_000;

/** Where a cursor points: a list, a page of it, and the list's fingerprint when it was issued. */
const CursorStateSchema = z.object({
  l: z.string(),
  i: z.int().check(z.positive()),
  f: z.string(),
});
type CursorState = z.infer<typeof CursorStateSchema>;

/** List cursors as sealed handles bound to the caller, valid for an hour. */
export class Cursors {
  constructor(
    private readonly sealer: Sealer,
    private readonly subject: string,
  ) {}

  seal(state: CursorState): Promise<string> {
    return this.sealer.seal(PURPOSE, this.subject, state, TTL_MS);
  }

  async open(cursor: string): Promise<CursorState> {
    const data = await openProtocolHandle(
      this.sealer,
      PURPOSE,
      this.subject,
      cursor,
      "Fetch the list again without a cursor.",
    );
    const parsed = CursorStateSchema.safeParse(data);
    if (!parsed.success)
      throw new RpcError(
        ErrorCode.InvalidParams,
        "Invalid cursor. Fetch the list again without a cursor.",
      );
    return parsed.data;
  }
}

import type { ServerResponse } from "node:http";

const MiB = 1024 * 1024;
/**
 * Far past any reply bound under test: a reader that reads it all was not bounded, and one that
 * does not stop still ends (with a whole, valid reply) instead of reading for minutes.
 */
export const FLOOD_CAP = 256 * MiB;
const CHUNK = "x".repeat(64 * 1024);

/**
 * Writes `head`, then chunks until the reader closes the connection or `FLOOD_CAP` bytes went
 * out, then `tail`; resolves with the bytes of chunks written.
 */
export function flood(
  res: ServerResponse,
  type: string,
  head: string,
  tail: string,
): Promise<number> {
  res.writeHead(200, { "Content-Type": type });
  res.write(head);
  let sent = 0;
  let closed = false;
  return new Promise((resolve) => {
    res.on("close", () => {
      closed = true;
      resolve(sent);
    });
    const pump = (): void => {
      while (!closed) {
        if (sent >= FLOOD_CAP) {
          res.end(tail);
          return;
        }
        sent += CHUNK.length;
        if (!res.write(CHUNK)) {
          res.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}

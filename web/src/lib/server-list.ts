import { OversizedBodyError, readJsonWithin } from "../../../shared/bounded-body.ts";
import { isRecord } from "./json.ts";

/** An MCP endpoint of this Worker, as `GET /api/servers` lists it. */
export type Endpoint = {
  path: string;
  name: string;
  title?: string;
  description?: string;
  upstreams?: string[];
};

/** An example identity of a local Worker, as `GET /api/servers` lists it. */
export type DevToken = { subject: string; token: string };

/**
 * The most `GET /api/servers` may weigh: a list of endpoints takes a few KiB, and whatever
 * answers there must not make the page read without end.
 */
export const MAX_SERVER_LIST_BYTES = 1024 * 1024;

/** The Worker's list of servers is larger than the page reads. */
export class ServerListTooLarge extends Error {
  override readonly name = "ServerListTooLarge";
  constructor() {
    super(
      `The Worker's list of servers (GET /api/servers) is larger than ${MAX_SERVER_LIST_BYTES} bytes (1 MiB), more than a list of endpoints takes; it was not read.`,
    );
  }
}

/** The endpoints and dev tokens of an answer to `GET /api/servers`, read up to its bound. */
export async function readServerList(
  response: Response,
): Promise<{ endpoints: Endpoint[]; devTokens: DevToken[] }> {
  let body: unknown;
  try {
    body = await readJsonWithin(response, MAX_SERVER_LIST_BYTES);
  } catch (error) {
    throw error instanceof OversizedBodyError ? new ServerListTooLarge() : error;
  }
  if (!isRecord(body)) return { endpoints: [], devTokens: [] };
  return {
    endpoints: Array.isArray(body.endpoints)
      ? body.endpoints.filter(
          (e): e is Endpoint =>
            isRecord(e) && typeof e.path === "string" && typeof e.name === "string",
        )
      : [],
    devTokens: Array.isArray(body.devTokens)
      ? body.devTokens.filter(
          (t): t is DevToken =>
            isRecord(t) && typeof t.subject === "string" && typeof t.token === "string",
        )
      : [],
  };
}

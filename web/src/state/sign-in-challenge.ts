import { bearerChallenge, type BearerChallenge } from "../../../shared/client/auth/challenge.ts";
import type { FlowRecorder } from "./flow-recorder.ts";
import { flowFetch } from "./flow-fetch.ts";

/** The server answered 401 without a Bearer challenge: nothing to sign in with. */
export class NoChallenge extends Error {
  constructor() {
    super("no challenge");
  }
}

/** The unauthenticated request a sign-in starts from, listed as the flow's first step. */
export async function challengeOf(
  url: string,
  recorder: FlowRecorder,
): Promise<BearerChallenge | undefined> {
  const response = await flowFetch(recorder.record, recorder.gate)(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "edgemcp-playground", version: "0.1.0" },
      },
    }),
  });
  const challenge = await bearerChallenge(response);
  const status = response.status;
  if (status === 401 && challenge) {
    recorder.add({
      name: "challenge",
      status: "ok",
      rule: "RFC 9728 §5.1; RFC 6750 §3",
      summary: challenge.resourceMetadata
        ? `401 with a Bearer challenge naming resource metadata ${challenge.resourceMetadata}${challenge.scope ? ` and scope "${challenge.scope}"` : ""}.`
        : "401 with a Bearer challenge without resource_metadata: the metadata is looked for at the well-known URLs.",
    });
    return challenge;
  }
  if (status === 401) {
    recorder.add({
      name: "challenge",
      status: "failed",
      rule: "RFC 6750 §3; MCP authorization",
      summary:
        "The server answered 401 without a Bearer challenge in WWW-Authenticate, so it does not use MCP authorization and the page cannot sign in to it. Add its token as a header instead.",
      fix: 'The server\'s owner must answer 401 with WWW-Authenticate: Bearer resource_metadata="…" to let clients sign in.',
    });
    throw new NoChallenge();
  }
  recorder.add({
    name: "challenge",
    status: "skipped",
    rule: "RFC 9728 §3",
    summary: `The server answered ${status} without a token: it lets anonymous callers in. Signing in follows its metadata at the well-known URLs, for the calls that need a token.`,
  });
  return undefined;
}

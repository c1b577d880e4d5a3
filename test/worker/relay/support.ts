import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import worker from "../../../worker/index.ts";
import { TEST_TOKENS } from "../../support/secrets.ts";

/** The Worker's origin as a developer's browser sees it under `npm start`. */
export const LOCAL = "http://localhost:8787";
/** The origin of a deployed Worker. */
export const DEPLOYED = "https://edgemcp.example.workers.dev";
/** A deployment's own token for alice (the suite's published tokens are refused off localhost). */
const DEPLOYED_TOKEN = `deployed-token-${crypto.randomUUID()}`;
/** A deployment's own secrets: sealing and tokens (the suite's published ones work on localhost only). */
export const DEPLOYED_SECRETS = {
  EDGEMCP_SECRET: `deployed-${crypto.randomUUID()}`,
  API_TOKENS: `${DEPLOYED_TOKEN}=alice`,
};
/** The loopback servers of test/support/relay-targets.ts. */
export const targets = () => inject("relayTargets");

/** Variables over the test Worker's own (RELAY_DEV, RELAY_HOSTS, the bounds). */
export type Vars = Record<string, string>;

/** The whole Worker, called with the test bindings and `vars` over them. */
export function callWorker(request: Request, vars: Vars = {}): Promise<Response> {
  return Promise.resolve(worker.fetch(request, { ...env, ...vars }, createExecutionContext()));
}

/** A page token, asked for as the page does (its origin, the Worker's credentials). */
export async function pageToken(
  origin = LOCAL,
  vars: Vars = { RELAY_DEV: "on" },
  authorization:
    string | null = `Bearer ${origin === DEPLOYED ? DEPLOYED_TOKEN : TEST_TOKENS.alice}`,
): Promise<string> {
  const headers: Record<string, string> = { Origin: origin };
  if (authorization !== null) headers.Authorization = authorization;
  const response = await callWorker(
    new Request(`${origin}/relay/token`, { method: "POST", headers }),
    vars,
  );
  const body: { token?: string; error?: { message: string } } = await response.json();
  if (!body.token) throw new Error(`no page token: ${JSON.stringify(body)}`);
  return body.token;
}

type RelayInit = {
  target: string;
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  origin?: string;
  token?: string | null;
  vars?: Vars;
};

/** One exchange through the relay, sent as the page sends it. */
export async function relay(init: RelayInit): Promise<Response> {
  const origin = init.origin ?? LOCAL;
  const vars = init.vars ?? { RELAY_DEV: "on" };
  const token = init.token === undefined ? await pageToken(origin, vars) : init.token;
  const headers: Record<string, string> = {
    Origin: origin,
    "Relay-Target": init.target,
    ...(init.method ? { "Relay-Method": init.method } : {}),
    ...(token === null ? {} : { "Relay-Token": token }),
    ...init.headers,
  };
  return callWorker(
    new Request(`${origin}/relay`, { method: "POST", headers, body: init.body ?? null }),
    vars,
  );
}

/** The relay's refusal: its status, rule and message. */
export async function refusal(response: Response) {
  const body: { error: { rule: string; message: string } } = await response.json();
  return { status: response.status, header: response.headers.get("Relay-Error"), ...body.error };
}

import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { MODERN_VERSION } from "../../shared/protocol/versions.ts";
import { admit, admitsEveryone, targetOfBody } from "../auth/admit.ts";
import type { Caller } from "../auth/bearer.ts";
import { callDirect, directFailure } from "./call/direct.ts";
import type { RoutedRequest } from "./call/calling.ts";
import { callerIdentity } from "./context/address.ts";
import { withChallenge } from "./handler/caller.ts";
import type { Envelope } from "./context/context.ts";
import { modernCapabilities } from "./era/modern/envelope.ts";
import { modern } from "./era/modern/index.ts";
import { logRequest } from "./observe/log.ts";
import { Observation } from "./observe/trace.ts";
import { failure } from "./request/errors.ts";
import type { DirectCall, DirectEntry, DirectReply } from "./request/in-process.ts";
import { routeOf } from "./request/route.ts";
import { callMeans, ServedInfo } from "./pipeline.ts";
import { openerOf, type Runtime } from "./runtime.ts";
import type { Served } from "./server/server.ts";

/**
 * The direct entry of an endpoint made by `mcpHandler` or `mcpApp`, for a proxy of the same
 * Worker (the hub): the handler's checks (its caller, access, limits), then the method table
 * past the envelope. Undefined for any other fetch handler, which is called with fetch.
 */
export function directEntry(app: object): DirectEntry | undefined {
  const opener = openerOf(app);
  if (!opener) return undefined;
  const { server } = opener;
  return async (call, env, ctx) => {
    let opened;
    try {
      opened = await opener.open(new Opening(call), env, ctx);
    } catch (error) {
      // Refused as the endpoint refuses a request: an auth refusal names its metadata.
      return directFailure(failure(withChallenge(error, call)));
    }
    return dispatch(server, call, opened.caller, opened.runtime);
  };
}

/**
 * A direct call as the handler's checks see it: its headers (its credentials and its caller's
 * address) are made only if an authenticator reads them. A class, so that the getter does not
 * make V8 build each one as a slow dictionary.
 */
class Opening {
  constructor(private readonly call: DirectCall) {}

  get url(): string {
    return this.call.url;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get headers(): Headers {
    const headers = new Headers(this.call.credentials);
    if (this.call.address !== undefined) headers.set("CF-Connecting-IP", this.call.address);
    return headers;
  }
}

/** Request ids of direct calls: no client sees them, they only tell the calls apart. */
let lastId = 0;
/** The headers of a direct call without an address: nothing reads any but the address. */
let noHeaders: Headers | undefined;

/**
 * Serves a call a proxy of this isolate hands over (`DirectCall`), whose caller is known: the
 * pipeline after the envelope, on the envelope's values as given. The caller's limits, the
 * access decision on the body and the capability gate are those of any request; there are no
 * routing headers to check against the body, no body to frame, and no reply to frame.
 */
async function dispatch(
  server: Served,
  call: DirectCall,
  caller: Caller | undefined,
  runtime: Runtime,
): Promise<DirectReply> {
  const { coordination, access } = runtime;
  const { name } = server;
  const { method, params } = call;
  const headers =
    call.address === undefined
      ? (noHeaders ??= new Headers())
      : new Headers({ "CF-Connecting-IP": call.address });
  // The call is where its trace is read from, if something reads it (its traceparent, a getter).
  const observation = new Observation(name, call, undefined);
  observation.method = method;
  const named = method === "resources/read" ? params.uri : params.name;
  if (typeof named === "string") observation.name = named.slice(0, 256);
  observation.era = modern.name;
  observation.subject = caller?.subject;
  const id = ++lastId;
  const limits = runtime.limits?.forCaller(callerIdentity(caller, headers));
  try {
    const tool = method === "tools/call" && typeof named === "string" ? named : undefined;
    if (!runtime.forwarded) await limits?.admit(name, tool);
    const catalog = await server.catalogFor(runtime);
    const capabilities = modernCapabilities(catalog, coordination);
    if (!admitsEveryone(access)) admit(access, caller, targetOfBody(method, params), catalog);
    const route = routeOf(modern, method, { capabilities, catalog, coordination });
    if ("stream" in route)
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `${method} answers with a stream: send it by HTTP.`,
      );
    const envelope: Envelope = {
      protocolVersion: MODERN_VERSION,
      clientCapabilities: call.clientCapabilities,
      clientInfo: call.clientInfo,
      ...(call.logLevel === undefined ? {} : { logLevel: call.logLevel }),
      ...(call.progressToken === undefined ? {} : { progressToken: call.progressToken }),
    };
    const info = new ServedInfo(envelope, id, method, modern.name, observation);
    const routed: RoutedRequest = {
      era: modern,
      info,
      params,
      server: name,
      catalog,
      capabilities,
      caller,
      access,
      cancellationKey: undefined,
      answers: params.inputResponses !== undefined || params.requestState !== undefined,
      headers,
      client: call,
      mode: "json-only",
      observation,
    };
    return await callDirect(
      route,
      routed,
      callMeans(runtime, catalog, name, caller, limits),
      call.notify,
    );
  } catch (error) {
    const outcome = failure(error, id, modern, observation);
    logRequest(runtime.log, observation, outcome.status, outcome.error);
    return directFailure(outcome);
  }
}

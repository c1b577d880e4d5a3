import type { JsonObject } from "../protocol/messages.ts";
import type { CompleteParams } from "../protocol/params.ts";
import {
  CompleteResultSchema,
  DiscoverResultSchema,
  GetPromptResultSchema,
  EmptyResultSchema,
  ReadResourceResultSchema,
  type CompleteResult,
  type GetPromptResult,
  type ReadResourceResult,
} from "../protocol/results.ts";
import { cachedFetch } from "./cache.ts";
import type { ClientCore } from "./core.ts";
import { describeDiscovered, type ServerDescription } from "./description.ts";
import { runInputRounds, type InputRound } from "./input.ts";
import type { CachedRequestOptions, InputRoundOptions, Reply, RequestOptions } from "./options.ts";
import { parseComplete, parseResult } from "./parse.ts";

/** `server/discover` through the cache; 2025 servers answer from their `initialize` result. */
export function discover(
  core: ClientCore,
  options: CachedRequestOptions,
): Promise<Reply<ServerDescription>> {
  return core.era.discover(async () => {
    const version = core.description.protocolVersion;
    const request = { method: "server/discover", key: "", mode: options.cache };
    const reply = await cachedFetch(core.conn, core.caches.discover, request, async () => {
      const raw = await core.send("server/discover", {}, options);
      const value = parseComplete(DiscoverResultSchema, raw, core.context("server/discover"));
      return { value, storable: true };
    });
    core.description = describeDiscovered(reply.result, version);
    return { ...reply, result: core.description };
  }, core.description);
}

/**
 * Sends a request through its input rounds (MRTR) with the client's handlers and limits; every
 * round carries the same `Mcp-Param-*` headers, when given.
 */
export function withInputRounds(
  core: ClientCore,
  method: string,
  params: JsonObject,
  options: InputRoundOptions,
  paramHeaders?: Readonly<Record<string, string>>,
): Promise<{ result: JsonObject; rounds: number }> {
  const send = (round: InputRound) =>
    core.send(method, { ...params, ...round }, options, paramHeaders);
  return runInputRounds(send, {
    handlers: core.conn.handlers,
    maxRounds: options.maxInputRounds ?? core.settings.maxInputRounds,
    signal: options.signal,
    context: core.context(method),
  });
}

/** `prompts/get` through its input rounds. */
export async function getPrompt(
  core: ClientCore,
  name: string,
  args: Record<string, string> | undefined,
  options: InputRoundOptions,
): Promise<Reply<GetPromptResult>> {
  const params = { name, ...(args === undefined ? {} : { arguments: args }) };
  const { result } = await withInputRounds(core, "prompts/get", params, options);
  const context = core.context("prompts/get");
  return { result: parseComplete(GetPromptResultSchema, result, context), source: "network" };
}

/** Reads a resource through the cache; results that needed input rounds are never stored. */
export function readResource(
  core: ClientCore,
  uri: string,
  options: InputRoundOptions & CachedRequestOptions,
): Promise<Reply<ReadResourceResult>> {
  const request = { method: "resources/read", key: uri, mode: options.cache };
  return cachedFetch(core.conn, core.caches.reads, request, async () => {
    const { result, rounds } = await withInputRounds(core, "resources/read", { uri }, options);
    const context = core.context("resources/read");
    return {
      value: parseComplete(ReadResourceResultSchema, result, context),
      storable: rounds === 0,
    };
  });
}

/** `completion/complete`: argument suggestions for a prompt or resource template. */
export async function complete(
  core: ClientCore,
  params: CompleteParams,
  options: RequestOptions,
): Promise<Reply<CompleteResult>> {
  const raw = await core.send("completion/complete", params, options);
  const context = core.context("completion/complete");
  return { result: parseComplete(CompleteResultSchema, raw, context), source: "network" };
}

/**
 * `resources/subscribe` or `resources/unsubscribe` (2025): updates of the resource arrive on
 * the session's background stream. 2026 servers take resource subscriptions on listen streams.
 */
export async function resourceSubscription(
  core: ClientCore,
  method: "resources/subscribe" | "resources/unsubscribe",
  uri: string,
  options: RequestOptions,
): Promise<void> {
  const context = core.context(method);
  core.era.require2025(
    `${method} is a 2025 method: 2026 servers send updates on listen streams.`,
    context,
  );
  parseResult(EmptyResultSchema, await core.send(method, { uri }, options), context);
}

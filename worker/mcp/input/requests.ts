import { issuesLine } from "../../../shared/zod-issues.ts";
import * as z from "zod/mini";
import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type CreateMessageResult,
  type ListRootsResult,
  type SamplingMessage,
} from "../../../shared/protocol/input.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import { JsonObjectSchema, type JsonObject } from "../../../shared/protocol/messages.ts";
import { jsonSchemaOf } from "../schema/json-schema.ts";

/**
 * Something a handler asks the client for (elicitation, sampling or roots), with what the
 * client must have declared to be asked, and how its answer is read.
 */
export type InputRequest<R> = {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params?: JsonObject;
  /** Capabilities the request needs, in `requiredCapabilities` form. */
  needs: ClientCapabilities;
  /** Whether the declared capabilities allow this request. */
  allowedBy(capabilities: ClientCapabilities): boolean;
  /** Reads the client's answer; a message saying what is wrong when it is not one. */
  parse(answer: unknown): { ok: true; value: R } | { ok: false; reason: string };
};

/** What an elicitation returns: the typed form content when the user accepted. */
export type Elicited<T> =
  { action: "accept"; content: T } | { action: "decline" | "cancel"; content?: undefined };

function has(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

// `elicitation: {}` means form mode; a client that lists modes must list `form`.
const canElicitForm = (caps: ClientCapabilities) =>
  has(caps.elicitation) && (has(caps.elicitation.form) || !has(caps.elicitation.url));
const canElicitUrl = (caps: ClientCapabilities) =>
  has(caps.elicitation) && has(caps.elicitation.url);
const canSample = (caps: ClientCapabilities, tools: boolean) =>
  has(caps.sampling) && (!tools || has(caps.sampling.tools));
const canListRoots = (caps: ClientCapabilities) => has(caps.roots);

/**
 * The capabilities a request in wire form needs, when `caps` lacks them (for input relayed
 * from another server, which arrives already serialized).
 */
export function wireRequestNeeds(
  request: JsonObject,
  caps: ClientCapabilities,
): ClientCapabilities | undefined {
  const params = isJsonObject(request.params) ? request.params : {};
  switch (request.method) {
    case "elicitation/create":
      if (params.mode === "url")
        return canElicitUrl(caps) ? undefined : { elicitation: { url: {} } };
      return canElicitForm(caps) ? undefined : { elicitation: {} };
    case "sampling/createMessage": {
      const tools = params.tools !== undefined;
      return canSample(caps, tools) ? undefined : { sampling: tools ? { tools: {} } : {} };
    }
    case "roots/list":
      return canListRoots(caps) ? undefined : { roots: {} };
    default:
      return {};
  }
}

function fromZod<T>(
  schema: z.core.$ZodType<T>,
  answer: unknown,
): { ok: true; value: T } | { ok: false; reason: string } {
  const parsed = z.safeParse(schema, answer);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, reason: issuesLine(parsed.error, answer) };
}

type FormOptions<S> = { message: string } & (
  { schema: S; requestedSchema?: never } | { requestedSchema: JsonObject; schema?: never }
);

/**
 * Asks the user to fill a form. With a zod `schema` (flat object of primitives) the answer is
 * validated and typed; with a raw `requestedSchema` the content arrives as plain values.
 */
export function elicit<S extends z.core.$ZodObject>(
  options: FormOptions<S>,
): InputRequest<Elicited<z.output<S>>>;
export function elicit(
  options: FormOptions<z.core.$ZodObject>,
): InputRequest<Elicited<Record<string, unknown>>> {
  const requestedSchema = options.schema
    ? jsonSchemaOf(options.schema, "input")
    : options.requestedSchema;
  const content: z.core.$ZodType<Record<string, unknown>> = options.schema ?? JsonObjectSchema;
  return {
    method: "elicitation/create",
    params: { mode: "form", message: options.message, requestedSchema },
    needs: { elicitation: {} },
    allowedBy: canElicitForm,
    parse(answer) {
      const result = fromZod(ElicitResultSchema, answer);
      if (!result.ok) return result;
      if (result.value.action !== "accept")
        return { ok: true, value: { action: result.value.action } };
      const form = fromZod(content, result.value.content ?? {});
      return form.ok ? { ok: true, value: { action: "accept", content: form.value } } : form;
    },
  };
}

/** Sends the user to a URL (e.g. to sign in); the outcome is learned from the accept/decline. */
export function elicitUrl(options: {
  message: string;
  url: string;
}): InputRequest<{ action: "accept" | "decline" | "cancel" }> {
  return {
    method: "elicitation/create",
    params: { mode: "url", message: options.message, url: options.url },
    needs: { elicitation: { url: {} } },
    allowedBy: canElicitUrl,
    parse(answer) {
      const result = fromZod(ElicitResultSchema, answer);
      return result.ok ? { ok: true, value: { action: result.value.action } } : result;
    },
  };
}

/** Asks the client's model for a completion (`sampling/createMessage`). */
export function sample(params: {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: JsonObject;
  tools?: JsonObject[];
}): InputRequest<CreateMessageResult> {
  const needsTools = params.tools !== undefined;
  return {
    method: "sampling/createMessage",
    params: { ...params },
    needs: needsTools ? { sampling: { tools: {} } } : { sampling: {} },
    allowedBy: (caps) => canSample(caps, needsTools),
    parse: (answer) => fromZod(CreateMessageResultSchema, answer),
  };
}

/** Asks the client for its roots (`roots/list`). */
export function listRoots(): InputRequest<ListRootsResult> {
  return {
    method: "roots/list",
    needs: { roots: {} },
    allowedBy: canListRoots,
    parse: (answer) => fromZod(ListRootsResultSchema, answer),
  };
}

/** The wire form of an input request inside `inputRequests`. */
export function wireInputRequest(request: InputRequest<unknown>): JsonObject {
  return request.params
    ? { method: request.method, params: request.params }
    : { method: request.method };
}

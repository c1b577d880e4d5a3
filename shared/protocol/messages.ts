import * as z from "zod/mini";

// The protocol's schemas are `z.lazy` marked pure: a Worker's module evaluation builds none of
// them (each is built the first time it parses), and bundlers drop the ones a Worker never uses.

/** Any JSON object: params, `_meta`, capability flags, JSON Schemas. */
export const JsonObjectSchema = /* @__PURE__ */ z.record(
  /* @__PURE__ */ z.string(),
  /* @__PURE__ */ z.unknown(),
);
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/** A JSON-RPC id as MCP allows it: a string or a number, never null. */
export const JsonRpcIdSchema = /* @__PURE__ */ z.union([
  /* @__PURE__ */ z.string(),
  /* @__PURE__ */ z.number(),
]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

/** The `error` member of an error response. */
export const JsonRpcErrorObjectSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    code: z.int(),
    message: z.string(),
    data: z.optional(z.unknown()),
  }),
);

/** A successful response. */
export const JsonRpcResultResponseSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    jsonrpc: z.literal("2.0"),
    id: JsonRpcIdSchema,
    result: JsonObjectSchema,
  }),
);

/** An error response; the id is absent (or null, from lenient peers) when the request was unreadable. */
export const JsonRpcErrorResponseSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    jsonrpc: z.literal("2.0"),
    id: z.optional(z.nullable(JsonRpcIdSchema)),
    error: JsonRpcErrorObjectSchema,
  }),
);

/** A request: from a client, or from a 2025 server on a response stream. */
export const JsonRpcRequestSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    jsonrpc: z.literal("2.0"),
    id: JsonRpcIdSchema,
    method: z.string(),
    params: z.optional(JsonObjectSchema),
  }),
);
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

/** A notification (progress, log, list changes, ...). */
export const JsonRpcNotificationSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    jsonrpc: z.literal("2.0"),
    method: z.string(),
    params: z.optional(JsonObjectSchema),
  }),
);
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

/** A response: a result, or an error. */
export type JsonRpcResponse =
  z.infer<typeof JsonRpcResultResponseSchema> | z.infer<typeof JsonRpcErrorResponseSchema>;

/** Any message a server sends a client, as a client reads it off the wire. */
export const ServerMessageSchema = /* @__PURE__ */ z.lazy(() =>
  z.union([
    JsonRpcResultResponseSchema,
    JsonRpcErrorResponseSchema,
    JsonRpcRequestSchema,
    JsonRpcNotificationSchema,
  ]),
);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

import * as z from "zod";
import type { InputHandlers, WireEvent } from "../../../shared/client/index.ts";

const SentSchema = z.looseObject({
  method: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  params: z.looseObject({ _meta: z.record(z.string(), z.unknown()).optional() }).optional(),
});

/** A POST the client sent, as its wire observer saw it. */
export type Sent = z.infer<typeof SentSchema> & { headers: Headers };

/** Records what a client sends, through its `onWire` option. */
export function wireRecorder() {
  const sent: Sent[] = [];
  const cacheHits: string[] = [];
  return {
    sent,
    cacheHits,
    onWire: (event: WireEvent) => {
      // A GET (a 2025 session's stream) has no body: only JSON-RPC POSTs are recorded.
      if (event.type === "request" && event.body !== undefined)
        sent.push({ ...SentSchema.parse(event.body), headers: event.headers });
      if (event.type === "cache") cacheHits.push(event.method);
    },
    /** The JSON-RPC methods sent so far, in order. */
    methods: () => sent.map((request) => request.method ?? "(response)"),
    clear: () => {
      sent.length = 0;
      cacheHits.length = 0;
    },
  };
}

/** Handlers that answer like a host with a user, a model and one root. */
export const ANSWERING: InputHandlers = {
  elicitation: async (params) => {
    const content: Record<string, string | boolean> = params.message.includes("color")
      ? { color: "teal" }
      : { name: "Ann", context: "release notes", ok: true };
    return { action: "accept", content };
  },
  sampling: async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
  }),
  roots: async () => ({ roots: [{ uri: "file:///project", name: "project" }] }),
};

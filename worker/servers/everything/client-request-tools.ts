import * as z from "zod";
import { elicit, sample, tool } from "../../mcp/index.ts";
import { textOf } from "./text-of.ts";

const titled = (prefix: string, titles: string[]) =>
  titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));

// The constant forms are built once per isolate, not on every call; they are only read.
const defaultsForm = elicit({
  message: "Please review and update the form fields with defaults",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "User name", default: "John Doe" },
      age: { type: "integer", description: "User age", default: 30 },
      score: { type: "number", description: "User score", default: 95.5 },
      status: {
        type: "string",
        description: "User status",
        enum: ["active", "inactive", "pending"],
        default: "active",
      },
      verified: { type: "boolean", description: "Verification status", default: true },
    },
    required: [],
  },
});

const enumsForm = elicit({
  message: "Please select options from the enum fields",
  requestedSchema: {
    type: "object",
    properties: {
      untitledSingle: {
        type: "string",
        description: "Select one option",
        enum: ["option1", "option2", "option3"],
      },
      titledSingle: {
        type: "string",
        description: "Select one option with titles",
        oneOf: titled("value", ["First Option", "Second Option", "Third Option"]),
      },
      legacyEnum: {
        type: "string",
        description: "Select one option (legacy)",
        enum: ["opt1", "opt2", "opt3"],
        enumNames: ["Option One", "Option Two", "Option Three"],
      },
      untitledMulti: {
        type: "array",
        description: "Select multiple options",
        minItems: 1,
        maxItems: 3,
        items: { type: "string", enum: ["option1", "option2", "option3"] },
      },
      titledMulti: {
        type: "array",
        description: "Select multiple options with titles",
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: titled("value", ["First Choice", "Second Choice", "Third Choice"]),
        },
      },
    },
    required: [],
  },
});

/**
 * Fixtures of the 2025 conformance suite that ask the client for something. 2025 clients get
 * the request on the call's stream and answer with a POST; 2026 clients get MRTR rounds.
 */
export const clientRequestTools = [
  tool({
    name: "test_sampling",
    description: "Asks the client's model to answer a prompt (sampling)",
    input: z.object({ prompt: z.string().describe("What to ask the model") }),
    run: async ({ prompt }, ctx) => {
      const { answer } = await ctx.input({
        answer: sample({
          messages: [{ role: "user", content: { type: "text", text: prompt } }],
          maxTokens: 100,
        }),
      });
      return `LLM response: ${textOf(answer.content)}`;
    },
  }),
  tool({
    name: "test_elicitation",
    description: "Asks the user a question through a form (elicitation)",
    input: z.object({ message: z.string().describe("What to ask the user") }),
    run: async ({ message }, ctx) => {
      const { reply } = await ctx.input({
        reply: elicit({
          message,
          requestedSchema: {
            type: "object",
            properties: { response: { type: "string", description: "User's response" } },
            required: ["response"],
          },
        }),
      });
      return `User response: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`;
    },
  }),
  tool({
    name: "test_elicitation_sep1034_defaults",
    description: "Asks for a form whose fields carry default values (SEP-1034)",
    run: async (_args, ctx) => {
      const { form } = await ctx.input({ form: defaultsForm });
      return `Elicitation completed: action=${form.action}, content=${JSON.stringify(form.content ?? {})}`;
    },
  }),
  tool({
    name: "test_elicitation_sep1330_enums",
    description: "Asks for a form with every kind of enum field (SEP-1330)",
    run: async (_args, ctx) => {
      const { form } = await ctx.input({ form: enumsForm });
      return `Elicitation completed: action=${form.action}, content=${JSON.stringify(form.content ?? {})}`;
    },
  }),
];

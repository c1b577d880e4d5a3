import * as z from "zod";
import { elicit, listRoots, prompt, sample, tool } from "../../mcp/index.ts";
import { textOf } from "./text-of.ts";

// The forms are built once per isolate: elicit() derives each one's JSON Schema, and a handler
// runs again for every MRTR round. The requests are only read, never changed.
const askName = elicit({
  message: "What is your name?",
  schema: z.object({ name: z.string().describe("Your name") }),
});
const askConfirmation = elicit({
  message: "Please confirm",
  schema: z.object({ ok: z.boolean() }),
});
const askNameUndescribed = elicit({
  message: "What is your name?",
  schema: z.object({ name: z.string() }),
});
const askStep1 = elicit({
  message: "Step 1: What is your name?",
  schema: z.object({ name: z.string() }),
});
const askStep2 = elicit({
  message: "Step 2: What is your favorite color?",
  schema: z.object({ color: z.string() }),
});
const askSomething = elicit({ message: "Say something", schema: z.object({ text: z.string() }) });
const askPromptContext = elicit({
  message: "What context should the prompt use?",
  schema: z.object({ context: z.string() }),
});

/** Fixtures for the conformance suite's input-required-result (MRTR) scenarios. */
export const inputTools = [
  tool({
    name: "test_input_required_result_elicitation",
    description: "Asks the user for their name (key user_name), then greets them",
    run: async (_args, ctx) => {
      const { user_name } = await ctx.input({ user_name: askName });
      return user_name.action === "accept"
        ? `Hello, ${user_name.content.name}!`
        : `No name given (${user_name.action}).`;
    },
  }),
  tool({
    name: "test_input_required_result_sampling",
    description: "Asks the client's model a question through sampling",
    run: async (_args, ctx) => {
      const { capital_question } = await ctx.input({
        capital_question: sample({
          messages: [
            { role: "user", content: { type: "text", text: "What is the capital of France?" } },
          ],
          maxTokens: 100,
        }),
      });
      return `The model said: ${textOf(capital_question.content)}`;
    },
  }),
  tool({
    name: "test_input_required_result_list_roots",
    description: "Asks the client for its roots",
    run: async (_args, ctx) => {
      const { client_roots } = await ctx.input({ client_roots: listRoots() });
      return `Roots: ${client_roots.roots.map((r) => r.uri).join(", ")}`;
    },
  }),
  tool({
    name: "test_input_required_result_request_state",
    description: "Asks for a confirmation, carrying sealed requestState between rounds",
    run: async (_args, ctx) => {
      const { confirm } = await ctx.input({ confirm: askConfirmation });
      return confirm.action === "accept" && confirm.content.ok
        ? "state-ok: requestState validated"
        : "not confirmed";
    },
  }),
  tool({
    name: "test_input_required_result_multiple_inputs",
    description: "Asks for a name, a sampled greeting and the roots in one round",
    run: async (_args, ctx) => {
      const answers = await ctx.input({
        user_name: askNameUndescribed,
        greeting: sample({
          messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
          maxTokens: 50,
        }),
        client_roots: listRoots(),
      });
      const name =
        answers.user_name.action === "accept" ? answers.user_name.content.name : "someone";
      return `${textOf(answers.greeting.content)} ${name} (${answers.client_roots.roots.length} roots)`;
    },
  }),
  tool({
    name: "test_input_required_result_multi_round",
    description: "Asks two questions in two rounds",
    run: async (_args, ctx) => {
      const { step1 } = await ctx.input({ step1: askStep1 });
      const { step2 } = await ctx.input({ step2: askStep2 });
      const name = step1.action === "accept" ? step1.content.name : "?";
      const color = step2.action === "accept" ? step2.content.color : "?";
      return `${name} likes ${color}.`;
    },
  }),
  tool({
    name: "test_input_required_result_tampered_state",
    description: "Asks for a confirmation; a tampered requestState is refused",
    run: async (_args, ctx) => {
      const { confirm } = await ctx.input({ confirm: askConfirmation });
      return confirm.action === "accept" ? "confirmed" : "not confirmed";
    },
  }),
  tool({
    name: "test_input_required_result_capabilities",
    description: "Asks only for input kinds the request's capabilities allow",
    run: async (_args, ctx) => {
      if (ctx.request.clientCapabilities.elicitation) {
        const { user_input } = await ctx.input({ user_input: askSomething });
        return user_input.action === "accept" ? user_input.content.text : user_input.action;
      }
      const { sample_input } = await ctx.input({
        sample_input: sample({
          messages: [{ role: "user", content: { type: "text", text: "Sample request" } }],
          maxTokens: 50,
        }),
      });
      return textOf(sample_input.content);
    },
  }),
];

export const inputPrompts = [
  prompt({
    name: "test_input_required_result_prompt",
    description: "MRTR: prompt that requires elicitation input",
    get: async (_args, ctx) => {
      const { user_context } = await ctx.input({ user_context: askPromptContext });
      return `Prompt with context: ${user_context.action === "accept" ? user_context.content.context : "none"}`;
    },
  }),
];

import * as z from "zod";
import { defineServer, prompt, resource, tool } from "edgemcp/server";

const RULES = `# House rules

- Every roll uses the Worker's cryptographic random numbers.
- A die has 2 to 1000 sides; one call rolls up to 100 of them.
`;

/** The MCP server: its tools, resources and prompts. Add yours next to these. */
export const server = defineServer({
  name: "{{name}}",
  version: "0.1.0",
  instructions: "Rolls dice. Call roll_dice whenever a fair random choice is needed.",
  tools: [
    tool({
      name: "roll_dice",
      title: "Roll dice",
      description: "Rolls dice and returns every roll and their total.",
      input: z.object({
        sides: z.number().int().min(2).max(1000).default(6).describe("Faces on each die"),
        count: z.number().int().min(1).max(100).default(1).describe("How many dice to roll"),
      }),
      output: z.object({ rolls: z.array(z.number().int()), total: z.number().int() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: ({ sides, count }) => {
        const random = crypto.getRandomValues(new Uint32Array(count));
        const rolls = Array.from(random, (value) => (value % sides) + 1);
        return { rolls, total: rolls.reduce((sum, roll) => sum + roll, 0) };
      },
    }),
  ],
  resources: [
    resource({
      uri: "dice://rules",
      name: "rules",
      title: "House rules",
      mimeType: "text/markdown",
      read: () => RULES,
    }),
  ],
  prompts: [
    prompt({
      name: "settle_a_dispute",
      title: "Settle a dispute",
      description: "Asks the model to settle a question with a fair roll",
      args: z.object({ question: z.string().describe("What is being decided") }),
      get: ({ question }) =>
        `Settle this fairly: "${question}". Roll one six-sided die with roll_dice, then say what the roll decides.`,
    }),
  ],
});

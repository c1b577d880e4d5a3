import * as z from "zod";
import { defineServer, mcpHandler, tool } from "edgemcp/server";

// hello-edgemcp with its schema in classic zod: what the runtime costs beside classic zod.
const hello = defineServer({
  name: "hello",
  version: "1.0.0",
  tools: [
    tool({
      name: "greet",
      description: "Greets someone by name",
      input: z.object({ name: z.string() }),
      run: ({ name }) => `Hello, ${name}!`,
    }),
  ],
});

export default mcpHandler(hello);

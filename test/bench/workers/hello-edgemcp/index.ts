import * as z from "zod/mini";
import { defineServer, mcpHandler, tool } from "edgemcp/server";

// The smallest useful edgemcp Worker: one tool written with zod/mini, for the bundle-size
// comparison (hello-edgemcp-classic is the same with classic zod).
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

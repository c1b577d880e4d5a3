import type { ExecutionContext } from "hono";
import { defineServer, mcpHandler, resource, tool } from "edgemcp/server";
import {
  BIG_TEXT,
  generatedToolName,
  RESOURCE_TEXT,
  RESOURCE_URI,
  toolCount,
  type BenchEnv,
} from "../fixtures.ts";
import { EchoInput, NoInput, NoopInput, ProgressInput } from "../schemas.ts";

function buildApp(n: number) {
  const generated = Array.from({ length: n }, (_, i) =>
    tool({
      name: generatedToolName(i),
      description: `Generated no-op tool ${i}`,
      input: NoopInput,
      run: () => "ok",
    }),
  );
  const server = defineServer({
    name: "bench-edgemcp",
    version: "1.0.0",
    // One page holds every tool, as the SDK sends them, so both lists carry the same bytes.
    pageSize: { tools: n + 100 },
    tools: [
      tool({ name: "echo", description: "Echoes text", input: EchoInput, run: ({ text }) => text }),
      tool({
        name: "progress",
        description: "Sends progress notifications, then a text",
        input: ProgressInput,
        run: ({ steps }, ctx) => {
          for (let i = 1; i <= steps; i++) ctx.progress(i, steps);
          return `did ${steps}`;
        },
      }),
      tool({
        name: "big",
        description: "Returns 1 MiB of text",
        input: NoInput,
        run: () => BIG_TEXT,
      }),
      ...generated,
    ],
    resources: [
      resource({
        uri: RESOURCE_URI,
        name: "readme",
        mimeType: "text/plain",
        read: () => RESOURCE_TEXT,
      }),
    ],
  });
  return mcpHandler(server);
}

// N comes from a binding, so the app is built on the first request, once per isolate.
let app: ReturnType<typeof buildApp> | undefined;

export default {
  fetch(request: Request, env: BenchEnv, ctx: ExecutionContext): Response | Promise<Response> {
    app ??= buildApp(toolCount(env));
    return app.fetch(request, env, ctx);
  },
};

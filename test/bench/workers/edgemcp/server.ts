import { defineServer, resource, serializedText, tool } from "edgemcp/server";
import {
  BIG_TEXT,
  generatedToolName,
  RESOURCE_TEXT,
  RESOURCE_URI,
  type BenchEnv,
} from "../fixtures.ts";
import { EchoInput, NoInput, NoopInput, ProgressInput } from "../schemas.ts";

/**
 * A bench Worker's env as edgemcp's handlers take it. The type checker shares this checkout's
 * Workers types (worker/worker-configuration.d.ts), so `Cloudflare.Env` there is the main
 * Worker's; a bench Worker has only N_TOOLS, and the runtime requires none of the others.
 */
export const asWorkerEnv = (env: BenchEnv) => env as unknown as Cloudflare.Env;

// The 1 MiB text as a block serialized once per isolate, as BIG_TEXT itself is built once: every
// answer copies its JSON instead of escaping the text again (see serializedText).
const BIG_BLOCK = serializedText(BIG_TEXT);

/** The bench server with its fixed tools, the resource and n generated no-op tools. */
export function benchServer(n: number) {
  const generated = Array.from({ length: n }, (_, i) =>
    tool({
      name: generatedToolName(i),
      description: `Generated no-op tool ${i}`,
      input: NoopInput,
      run: () => "ok",
    }),
  );
  return defineServer({
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
        run: () => BIG_BLOCK,
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
}

import { hubServer } from "edgemcp/hub";
import { mcpHandler } from "edgemcp/server";
import { toolCount, type BenchEnv } from "../fixtures.ts";
import { asWorkerEnv, benchServer } from "../edgemcp/server.ts";

// The hub in front of the edgemcp bench server, mounted in the same Worker (called in-process):
// its tools are bench__echo, bench__progress, ... The hub's own overhead is what this measures.
let handler: ReturnType<typeof mcpHandler> | undefined;

export default {
  fetch(request: Request, env: BenchEnv, ctx: ExecutionContext): Response | Promise<Response> {
    handler ??= mcpHandler(
      hubServer({
        name: "bench-hub",
        upstreams: [{ name: "bench", app: mcpHandler(benchServer(toolCount(env))) }],
      }),
    );
    return handler.fetch(request, asWorkerEnv(env), ctx);
  },
};

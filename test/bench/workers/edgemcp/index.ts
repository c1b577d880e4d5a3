import { mcpHandler } from "edgemcp/server";
import { toolCount, type BenchEnv } from "../fixtures.ts";
import { asWorkerEnv, benchServer } from "./server.ts";

// N comes from a binding, so the server is built on the first request, once per isolate.
let handler: ReturnType<typeof mcpHandler> | undefined;

export default {
  fetch(request: Request, env: BenchEnv, ctx: ExecutionContext): Response | Promise<Response> {
    handler ??= mcpHandler(benchServer(toolCount(env)));
    return handler.fetch(request, asWorkerEnv(env), ctx);
  },
};

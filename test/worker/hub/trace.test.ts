import { describe, expect, it } from "vitest";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import type { RequestLog } from "../../../worker/mcp/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";
import { alphaUnless } from "./support.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

describe("trace context through the hub", () => {
  it("sends the upstream the caller's trace, with the hub's request as the parent span", async () => {
    const upstreamMeta: unknown[] = [];
    const logs: RequestLog[] = [];
    const hub = serve(
      hubServer({
        name: "traced-hub",
        upstreams: (env) => [
          alphaUnless(env, "alpha", async (sent, request) => {
            if (sent.method === "tools/call") {
              const body = await request.clone().json<{ params: { _meta: unknown } }>();
              upstreamMeta.push(body.params._meta);
            }
            return undefined;
          }),
        ],
      }),
      { log: (entry) => logs.push(entry) },
    );
    const { final } = await hub.send(
      mcpRequest(
        "tools/call",
        { name: "alpha__add", arguments: { a: 1, b: 2 } },
        { meta: { traceparent: `00-${TRACE}-${PARENT}-01` } },
      ),
      "tools/call",
    );
    expect(final?.result?.structuredContent).toEqual({ sum: 3 });
    const hubLine = logs.find((l) => l.method === "tools/call");
    expect(hubLine).toMatchObject({ traceId: TRACE, parentId: PARENT, name: "alpha__add" });
    expect(upstreamMeta).toEqual([
      expect.objectContaining({ traceparent: `00-${TRACE}-${hubLine?.correlationId}-01` }),
    ]);
  });
});

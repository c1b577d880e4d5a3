import { afterEach, describe, expect, it } from "vitest";
import { serverUrl, textOf } from "../interop/support/clients.ts";
import { serveFetch, type LoopbackServer } from "../interop/support/http.ts";
import { eventually } from "../support/eventually.ts";
import { BridgeProcess, modern } from "./bridge-process.ts";

let bridge: BridgeProcess | undefined;
let upstream: LoopbackServer | undefined;
afterEach(async () => {
  bridge?.kill();
  await upstream?.close();
  bridge = undefined;
  upstream = undefined;
});

function start(url: string | URL, args: string[] = [], env: Record<string, string> = {}) {
  bridge = new BridgeProcess([String(url), ...args], env);
  return bridge;
}

describe("edgemcp stdio, driven line by line", () => {
  it("answers a line that is not JSON with -32700 and keeps serving", async () => {
    const host = start(serverUrl("everything"));
    host.send("{not json");
    host.send(modern(1, "server/discover"));
    expect(await host.next((line) => line.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(await host.answer(1)).toMatchObject({ result: { resultType: "complete" } });
  });

  it("answers a message that is not JSON-RPC 2.0 with -32600 and its id", async () => {
    const host = start(serverUrl("everything"));
    host.send({ jsonrpc: "1.0", id: 7, method: "tools/list" });
    expect(await host.answer(7)).toMatchObject({ error: { code: -32600 } });
  });

  it("lists the tools itself when the host calls one it never listed, to send its Mcp-Param-*", async () => {
    const host = start(serverUrl("everything"));
    host.send(modern(1, "tools/call", { name: "test_x_mcp_header", arguments: { region: "eu" } }));
    expect(textOf((await host.answer(1)).result)).toBe("region=eu priority=- urgent=-");
  });

  it("passes the server's JSON-RPC error on with the host's id", async () => {
    const host = start(serverUrl("everything"));
    host.send(modern("x", "no/such/method"));
    expect(await host.answer("x")).toMatchObject({ error: { code: -32601 } });
  });

  it("refuses a request id that is still in flight", async () => {
    const host = start(serverUrl("everything"));
    host.send(modern("L", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
    await host.next((line) => line.method === "notifications/subscriptions/acknowledged");
    host.send(modern("L", "server/discover"));
    expect(await host.answer("L")).toMatchObject({ error: { code: -32600 } });
  });

  it("ends a listen stream when the host cancels it, while another stays open", async () => {
    const host = start(serverUrl("everything"));
    const subscriptionOf = (line: Record<string, unknown>) =>
      JSON.stringify(line).match(/"io\.modelcontextprotocol\/subscriptionId":"(\w+)"/)?.[1];
    for (const id of ["gone", "kept"]) {
      host.send(modern(id, "subscriptions/listen", { notifications: { toolsListChanged: true } }));
      await host.next(
        (line) =>
          line.method === "notifications/subscriptions/acknowledged" && subscriptionOf(line) === id,
      );
    }
    host.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "gone" } });
    host.send(modern(2, "tools/call", { name: "test_trigger_tool_change", arguments: {} }));
    await host.answer(2);
    await host.next(
      (line) =>
        line.method === "notifications/tools/list_changed" && subscriptionOf(line) === "kept",
    );
    const changes = host.lines.filter((line) => line.method === "notifications/tools/list_changed");
    expect(changes.map(subscriptionOf)).toEqual(["kept"]);
  });

  it("lets a call finish when the host closes stdin, then exits", async () => {
    const host = start(serverUrl("everything"));
    host.send(
      modern(1, "tools/call", { name: "test_slow_counter", arguments: { steps: 3, delayMs: 100 } }),
    );
    expect(await host.end()).toBe(0);
    expect(textOf((await host.answer(1)).result)).toBe("Counted to 3");
  });

  it("sends EDGEMCP_TOKEN as a bearer token and --header values with every request", async () => {
    const seen: Headers[] = [];
    upstream = await serveFetch(async (request) => {
      seen.push(request.headers);
      return Response.json({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } });
    });
    const host = start(upstream.origin, ["--header", "X-Team: blue"], { EDGEMCP_TOKEN: "s3cret" });
    host.send(modern(1, "server/discover"));
    await host.answer(1);
    expect(seen[0]?.get("Authorization")).toBe("Bearer s3cret");
    expect(seen[0]?.get("X-Team")).toBe("blue");
    expect(seen[0]?.get("Mcp-Method")).toBe("server/discover");
  });

  it("drops a tool whose x-mcp-header declarations break the rules, saying so on stderr", async () => {
    upstream = await serveFetch(async () =>
      Response.json({
        jsonrpc: "2.0",
        id: 1,
        result: {
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "public",
          tools: [
            { name: "fine", inputSchema: { type: "object" } },
            {
              name: "broken",
              inputSchema: {
                type: "object",
                properties: {
                  tags: { type: "array", items: { type: "string", "x-mcp-header": "Tag" } },
                },
              },
            },
          ],
        },
      }),
    );
    const host = start(upstream.origin);
    host.send(modern(1, "tools/list"));
    const answer = await host.answer(1);
    expect(JSON.stringify(answer)).toContain('"fine"');
    expect(JSON.stringify(answer)).not.toContain('"broken"');
    // stderr is another pipe: its line may arrive after the answer.
    await eventually(
      async () => host.stderr.join("").includes('Dropped tool "broken"') || undefined,
    );
  });

  it("answers an HTTP 401 with an error that says how to pass a token", async () => {
    upstream = await serveFetch(async () => new Response("Unauthorized", { status: 401 }));
    const host = start(upstream.origin);
    host.send(modern(1, "server/discover"));
    const answer = await host.answer(1);
    expect(answer).toMatchObject({ error: { code: -32603 } });
    expect(JSON.stringify(answer)).toContain("EDGEMCP_TOKEN");
  });

  it("answers with an error when the server cannot be reached", async () => {
    const closed = await serveFetch(async () => new Response(null));
    await closed.close();
    const host = start(closed.origin);
    host.send(modern(1, "server/discover"));
    expect(await host.answer(1)).toMatchObject({
      error: { code: -32603, message: expect.stringContaining("Could not reach") },
    });
  });
});

import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeSse } from "../../../shared/sse.ts";
import { eventually } from "../../support/eventually.ts";
import { modernBody } from "../../support/mcp-request.ts";
import { ALICE_TOKEN, startTwoInstances } from "./two-instances.ts";

let mf: Miniflare;
beforeAll(async () => {
  mf = await startTwoInstances();
}, 120_000);
afterAll(() => mf?.dispose());

// Editing notes needs a caller with a token.
const headers = (method: string, name?: string) => ({
  Authorization: `Bearer ${ALICE_TOKEN}`,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": method,
  ...(name ? { "Mcp-Name": name } : {}),
});

/** A 2026 request to one instance ("a" or "b"). */
function post(
  instance: "a" | "b",
  server: string,
  method: string,
  params: Record<string, unknown>,
  id: string | number = 1,
) {
  const name = [params.name, params.uri, params.taskId].find((v) => typeof v === "string");

  return mf.dispatchFetch(`http://${instance}.test/mcp/${server}`, {
    method: "POST",
    headers: headers(method, name),
    body: JSON.stringify(modernBody(method, params, { id })),
  });
}

/**
 * A 2025 request to one instance, as older clients send them: after `initialize`, with the
 * session id it gave (which scopes an anonymous caller's cancellations).
 */
function legacyPost(instance: "a" | "b", body: Record<string, unknown>, sessionId?: string) {
  return mf.dispatchFetch(`http://${instance}.test/mcp/everything`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(body.method === "initialize" ? {} : { "MCP-Protocol-Version": "2025-11-25" }),
      ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...body }),
  });
}

/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read in assertions */
const json = (response: { json(): Promise<unknown> }): Promise<any> => response.json();

/* eslint-enable @typescript-eslint/no-explicit-any */

async function nextMessage(events: AsyncGenerator<{ data: string }>) {
  const event = await Promise.race([
    events.next(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("no event in 5 s")), 5_000),
    ),
  ]);
  if (event.done) throw new Error("stream ended");
  return JSON.parse(event.value.data);
}

describe("two Worker instances sharing the Durable Objects", () => {
  it("announce a note edited through one instance on a listen stream held by the other", async () => {
    const listen = await post(
      "a",
      "notes",
      "subscriptions/listen",
      { notifications: { resourcesListChanged: true, resourceSubscriptions: ["notes://note-1"] } },
      "across",
    );
    const events = decodeSse(listen.body as ReadableStream<Uint8Array>);
    expect((await nextMessage(events)).method).toBe("notifications/subscriptions/acknowledged");

    const edit = await post("b", "notes", "tools/call", {
      name: "edit_note",
      arguments: { id: 1, body: "Edited on instance b." },
    });
    expect((await json(edit)).result.content[0].text).toBe("Updated note 1.");
    expect(await nextMessage(events)).toMatchObject({
      method: "notifications/resources/updated",
      params: {
        uri: "notes://note-1",
        _meta: { "io.modelcontextprotocol/subscriptionId": "across" },
      },
    });

    const read = await post("a", "notes", "resources/read", { uri: "notes://note-1" }, 2).then(
      json,
    );
    expect(read.result.contents[0].text).toMatch(/Edited on instance b/);
    await events.return(undefined);
  });

  it("stop a call running on one instance when its cancel notification lands on the other", async () => {
    const label = `x-${Date.now()}`;
    const init = await legacyPost("a", {
      id: "init",
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
    });
    await init.body?.cancel();
    const sessionId = init.headers.get("Mcp-Session-Id") ?? undefined;
    expect(sessionId).toBeDefined();
    const call = await legacyPost(
      "a",
      {
        id: "slow-1",
        method: "tools/call",
        params: {
          name: "test_slow_counter",
          arguments: { steps: 100, delayMs: 50, label },
          _meta: { progressToken: "p" },
        },
      },
      sessionId,
    );
    const events = decodeSse(call.body as ReadableStream<Uint8Array>);
    expect((await nextMessage(events)).method).toBe("notifications/progress");

    const sentAt = Date.now();
    const cancel = await legacyPost(
      "b",
      {
        method: "notifications/cancelled",
        params: { requestId: "slow-1", reason: "user pressed stop" },
      },
      sessionId,
    );
    expect(cancel.status).toBe(202);

    let polls = 0;
    const status = await eventually(
      async () => {
        const reply = await post(
          "a",
          "everything",
          "tools/call",
          { name: "test_abort_status", arguments: { label } },
          `s-${polls++}`,
        ).then(json);
        const text: string = reply.result.content[0].text;
        return text.startsWith("aborted") ? text : undefined;
      },
      { intervalMs: 20, what: `an abort of ${label}` },
    );
    const match = /^aborted: .* at step (\d+) \(t=(\d+)\)$/.exec(status);
    expect(match, status).not.toBeNull();
    const latency = Number(match?.[2]) - sentAt;
    console.log(
      `cross-instance cancel: handler aborted ${latency} ms after the cancel POST (step ${match?.[1]} of 100)`,
    );
    expect(Number(match?.[1])).toBeLessThan(100);
    await events.return(undefined);
  });

  it("keep a task created through one instance readable and cancellable through the other", async () => {
    const caps = {
      "io.modelcontextprotocol/clientCapabilities": {
        extensions: { "io.modelcontextprotocol/tasks": {} },
      },
    };
    const created = await mf
      .dispatchFetch("http://a.test/mcp/ops", {
        method: "POST",
        headers: headers("tools/call", "scan_repo"),
        body: JSON.stringify(
          modernBody(
            "tools/call",
            { name: "scan_repo", arguments: { repo: "acme/app", files: 200, file_ms: 20 } },
            { meta: caps, id: 9 },
          ),
        ),
      })
      .then(json);
    const taskId = created.result.taskId;
    expect(created.result.status).toBe("working");
    const taskRequest = (method: string) =>
      mf
        .dispatchFetch("http://b.test/mcp/ops", {
          method: "POST",
          headers: headers(method, taskId),
          body: JSON.stringify(modernBody(method, { taskId }, { meta: caps })),
        })
        .then(json);
    expect((await taskRequest("tasks/get")).result.status).toBe("working");
    expect((await taskRequest("tasks/cancel")).result.resultType).toBe("complete");
    expect((await taskRequest("tasks/get")).result.status).toBe("cancelled");
  });
});

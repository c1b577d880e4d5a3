import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { eventually } from "../../support/eventually.ts";
import { CLIENT_INFO, delay, everythingUrl, textOf, uniqueLabel } from "../support/clients.ts";

// The rules a 2025 session lives by, whatever the client: it is asked only for the input its
// initialize declared and its revision defines (else the -32021 a 2026 call gets), and a
// cancel reaches only its own session's call of that id. Both official TypeScript clients.

type Options = { declare?: boolean; token?: string; version?: string };

/** A fetch that makes the client's initialize ask for `version`, as an older release would. */
function asking(version: string | undefined): typeof fetch {
  return async (input, init) => {
    if (version && typeof init?.body === "string" && init.body.includes('"initialize"')) {
      const body = JSON.parse(init.body) as { params: { protocolVersion: string } };
      body.params.protocolVersion = version;
      return fetch(input, { ...init, body: JSON.stringify(body) });
    }
    return fetch(input, init);
  };
}

/** What each client does here, behind one shape. */
type Caller = {
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  elicited: string[];
  version(): string | undefined;
  close(): Promise<void>;
};

async function v1({ declare = true, token, version }: Options = {}): Promise<Caller> {
  const client = new V1Client(CLIENT_INFO, { capabilities: declare ? { elicitation: {} } : {} });
  const elicited: string[] = [];
  if (declare)
    client.setRequestHandler(ElicitRequestSchema, async ({ params }) => {
      elicited.push(params.message);
      return { action: "accept", content: { response: "Ada" } };
    });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new V1Transport(everythingUrl(), {
    requestInit: { headers },
    fetch: asking(version),
  });
  await client.connect(transport);
  return {
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, undefined, signal ? { signal } : {}),
    elicited,
    version: () => transport.protocolVersion,
    close: () => client.close(),
  };
}

async function v2({ declare = true, token, version }: Options = {}): Promise<Caller> {
  const client = new Client(CLIENT_INFO, { capabilities: declare ? { elicitation: {} } : {} });
  const elicited: string[] = [];
  if (declare)
    client.setRequestHandler("elicitation/create", async ({ params }) => {
      elicited.push(params.message);
      return { action: "accept", content: { response: "Ada" } };
    });
  const base = asking(version);
  const authorized: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set("Authorization", `Bearer ${token}`);
    return base(input, { ...init, headers });
  };
  await client.connect(new StreamableHTTPClientTransport(everythingUrl(), { fetch: authorized }));
  return {
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, signal ? { signal } : {}),
    elicited,
    version: () => client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}

async function abortStatus(caller: Caller, label: string): Promise<string> {
  return textOf(await caller.call("test_abort_status", { label }));
}

describe.each([
  ["v1 (@modelcontextprotocol/sdk)", v1],
  ["v2 (@modelcontextprotocol/client)", v2],
])("the official %s client in a 2025 session", (_name, connect) => {
  it("without the elicitation capability, gets -32021 for a tool that asks, and no request", async () => {
    const caller = await connect({ declare: false });
    await expect(caller.call("test_elicitation", { message: "Name?" })).rejects.toMatchObject({
      code: -32021,
      message: expect.stringContaining("elicitation/create, which the client did not declare"),
    });
    await caller.close();
  });

  it("with it, is asked through its handler", async () => {
    const caller = await connect();
    const result = await caller.call("test_elicitation", { message: "Name?" });
    expect(textOf(result)).toContain('"response":"Ada"');
    expect(caller.elicited).toEqual(["Name?"]);
    await caller.close();
  });

  it("at 2025-03-26, which has no elicitation, gets -32021 though it declared it", async () => {
    const caller = await connect({ version: "2025-03-26" });
    expect(caller.version()).toBe("2025-03-26");
    await expect(caller.call("test_elicitation", { message: "Name?" })).rejects.toMatchObject({
      code: -32021,
    });
    expect(caller.elicited).toEqual([]);
    await caller.close();
  });

  it("cancels its own call, not another session's call of the same id (one subject, two sessions)", async () => {
    const a = await connect({ token: "token-alice" });
    const b = await connect({ token: "token-alice" });
    const watcher = await connect();
    const [one, two] = [uniqueLabel("session-a"), uniqueLabel("session-b")];
    // Both sessions' next request id is the same: each has sent initialize alone so far.
    const controller = new AbortController();
    const callA = a.call(
      "test_slow_counter",
      { steps: 400, delayMs: 25, label: one },
      controller.signal,
    );
    const callB = b.call("test_slow_counter", { steps: 60, delayMs: 25, label: two });
    callA.catch(() => {});
    await delay(500);
    controller.abort("stop");
    await eventually(
      async () => ((await abortStatus(watcher, one)).startsWith("aborted") ? true : undefined),
      { intervalMs: 50, what: `an abort of ${one}` },
    );
    await callB;
    expect(await abortStatus(watcher, two)).toBe(`not aborted: ${two}`);
    await Promise.all([a.close(), b.close(), watcher.close()]);
  });
});

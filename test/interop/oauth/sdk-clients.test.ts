import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { UnauthorizedError as V1UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { CLIENT_INFO, serverUrl } from "../support/clients.ts";
import { DrivenProvider } from "./sign-in.ts";

/** The text of a tool result. */
const text = (result: unknown) =>
  String((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "");
const noteId = (result: unknown) => Number(/note-(\d+)/.exec(JSON.stringify(result))?.[1]);

// Each SDK signs in the way a host application does: a call that needs a token gets 401, the
// client discovers the Worker's authorization server, registers, and sends the person to its
// page (driven here over HTTP); then a call that needs more scope gets 403 insufficient_scope
// and the client steps up through the same page.
describe.each([
  [
    "v2 (@modelcontextprotocol/client)",
    {},
    async (provider: DrivenProvider) => {
      const transport = new StreamableHTTPClientTransport(serverUrl("notes"), {
        authProvider: provider as never,
      });
      const client = new Client(CLIENT_INFO, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      });
      await client.connect(transport);
      const finish = () => transport.finishAuth(provider.callback);
      return { client, finish, Unauthorized: UnauthorizedError as new () => Error };
    },
  ],
  [
    "v1 (@modelcontextprotocol/sdk)",
    { keepRefresh: false },
    // v1 steps up by refreshing when it holds a refresh token, and a refresh never widens a
    // grant (RFC 6749 §6: the server refuses or keeps the scope), so the 403 comes back; a v1
    // host steps up by signing in again, without a refresh token.
    async (provider: DrivenProvider) => {
      const transport = new V1Transport(serverUrl("notes"), { authProvider: provider as never });
      const client = new V1Client(CLIENT_INFO);
      await client.connect(transport);
      const finish = () => transport.finishAuth(provider.code);
      return { client, finish, Unauthorized: V1UnauthorizedError as new () => Error };
    },
  ],
])("the official %s client signs in to /mcp/notes", (_name, options, connect) => {
  it("registers, signs in, creates a note, is refused deleting it with 403 insufficient_scope, steps up and deletes it", async () => {
    const provider = new DrivenProvider(options);
    const { client, finish, Unauthorized } = await connect(provider);
    const create = () =>
      client.callTool({
        name: "create_note",
        arguments: { title: "From the SDK", body: "signed in" },
      });

    // Reads stay open; a write needs a token.
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain("search_notes");
    const refused = await create().catch((error: unknown) => error);
    expect(refused, String(refused)).toBeInstanceOf(Unauthorized);
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.asked).toContain("mcp");
    await finish();
    expect(provider.saved?.scope?.split(" ")).toContain("mcp");

    const created = await create();
    expect(created.isError).toBeFalsy();
    const id = noteId(created);
    expect(id).toBeGreaterThan(0);

    // Deleting needs notes:delete: the 403 names it, the client asks for it.
    const remove = () => client.callTool({ name: "delete_note", arguments: { id } });
    const stepUp = await remove().catch((error: unknown) => error);
    expect(stepUp, String(stepUp)).toBeInstanceOf(Unauthorized);
    expect(provider.asked).toEqual(expect.arrayContaining(["mcp", "notes:delete"]));
    await finish();
    expect(provider.saved?.scope?.split(" ")).toEqual(
      expect.arrayContaining(["mcp", "notes:delete"]),
    );
    const deleted = await remove();
    expect(deleted.isError).toBeFalsy();
    expect(text(deleted)).toMatch(/deleted/i);
    expect(provider.authorizations).toBe(2);
    await client.close();
  });
});

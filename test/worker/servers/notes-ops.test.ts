import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mcpRequest } from "../../support/mcp-request.ts";
import { call } from "../call.ts";
import { messages } from "../stream.ts";

// Tools that change things need a caller with a token (anonymous callers get the read-only ones).
const ALICE = { Authorization: "Bearer token-alice" };
const notes = (name: string, args: Record<string, unknown>) =>
  call("tools/call", { name, arguments: args }, { server: "notes", headers: ALICE });
const ops = (
  name: string,
  args: Record<string, unknown>,
  options: Parameters<typeof call>[2] = {},
) => call("tools/call", { name, arguments: args }, { server: "ops", headers: ALICE, ...options });

describe("the notes server", () => {
  it("lists the seeded notes as resources and reads one as Markdown", async () => {
    const { final } = await call("resources/list", {}, { server: "notes" });
    expect(final?.result.resources.slice(0, 3).map((r: { uri: string }) => r.uri)).toEqual([
      "notes://note-1",
      "notes://note-2",
      "notes://note-3",
    ]);
    const read = await call("resources/read", { uri: "notes://note-2" }, { server: "notes" });
    expect(read.final?.result.contents[0]).toMatchObject({
      mimeType: "text/markdown",
      text: expect.stringMatching(/^# On-call checklist/),
    });
  });

  it("finds notes by text and tags, answering with resource links", async () => {
    const { final } = await notes("search_notes", { query: "release", tags: ["ops"] });
    expect(final?.result.content).toEqual([
      { type: "text", text: "1 note matches." },
      expect.objectContaining({
        type: "resource_link",
        uri: "notes://note-3",
        name: "Release process",
        mimeType: "text/markdown",
      }),
    ]);
  });

  it("keeps the seeded checklist's lines apart: the link describes its first line", async () => {
    const { final } = await notes("search_notes", { query: "checklist" });
    expect(final?.result.content[1]).toMatchObject({
      type: "resource_link",
      uri: "notes://note-2",
      description: "1. Acknowledge the page",
    });
    const read = await call("resources/read", { uri: "notes://note-2" }, { server: "notes" });
    expect(read.final?.result.contents[0].text).toContain(
      "1. Acknowledge the page\n2. Open an incident channel\n3. Check the error-log dashboard",
    );
  });

  it("lists notes with their tags and completes note ids", async () => {
    const { final } = await call("resources/list", {}, { server: "notes" });
    expect(final?.result.resources[1]).toEqual({
      uri: "notes://note-2",
      name: "On-call checklist",
      description: "Tags: ops, runbook",
      mimeType: "text/markdown",
    });
    const completed = await call(
      "completion/complete",
      {
        ref: { type: "ref/resource", uri: "notes://note-{id}" },
        argument: { name: "id", value: "" },
      },
      { server: "notes" },
    );
    expect(completed.final?.result.completion.values.slice(0, 3)).toEqual(["1", "2", "3"]);
  });

  it("treats LIKE wildcards in a query as plain text", async () => {
    const { final } = await notes("search_notes", { query: "%" });
    expect(final?.result.content[0].text).toBe("No notes match.");
  });

  it("announces a created note on a listen stream, then an edit to subscribers of its URI", async () => {
    const stream = messages(
      await exports.default.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { resourcesListChanged: true, resourceSubscriptions: ["notes://"] } },
          { server: "notes", id: "n" },
        ),
      ),
      "subscriptions/listen",
    );
    await stream.next();
    const created = await notes("create_note", { title: "Fresh", body: "new", tags: ["t"] });
    const uri = created.final?.result.content[1].uri;
    expect(await stream.next()).toMatchObject({ method: "notifications/resources/list_changed" });
    await notes("edit_note", { id: Number(uri.split("-")[1]), body: "edited" });
    expect(await stream.next()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri },
    });
    const read = await call("resources/read", { uri }, { server: "notes" });
    expect(read.final?.result.contents[0].text).toMatch(/edited/);
    await stream.close();
  });

  it("announces a list change when an edit changes tags, not when it changes only the body", async () => {
    const created = await notes("create_note", { title: "Tagged", body: "first", tags: ["a"] });
    const uri: string = created.final?.result.content[1].uri;
    const stream = messages(
      await exports.default.fetch(
        mcpRequest(
          "subscriptions/listen",
          { notifications: { resourcesListChanged: true, resourceSubscriptions: [uri] } },
          { server: "notes", id: "tags" },
        ),
      ),
      "subscriptions/listen",
    );
    await stream.next();
    const id = Number(uri.split("-")[1]);
    await notes("edit_note", { id, body: "second" });
    const edited = await notes("edit_note", { id, tags: ["a", "b"] });
    expect(edited.final?.result.content[1]).toMatchObject({
      uri,
      name: "Tagged",
      description: "second",
    });
    expect(await stream.next()).toMatchObject({ method: "notifications/resources/updated" });
    expect(await stream.next()).toMatchObject({ method: "notifications/resources/updated" });
    expect(await stream.next()).toMatchObject({
      method: "notifications/resources/list_changed",
    });
    await stream.close();
    const listed = await call("resources/list", {}, { server: "notes" });
    expect(
      listed.final?.result.resources.find((r: { uri: string }) => r.uri === uri),
    ).toMatchObject({ name: "Tagged", description: "Tags: a, b" });
  });

  it("answers an edit of a missing note with a tool error", async () => {
    const { final } = await notes("edit_note", { id: 999_999, title: "Ghost" });
    expect(final?.result).toMatchObject({
      isError: true,
      content: [{ text: "There is no note 999999. Use search_notes to find notes." }],
    });
  });

  it("deletes a note, after which it cannot be read", async () => {
    const created = await notes("create_note", { title: "Doomed", body: "x" });
    const uri: string = created.final?.result.content[1].uri;
    expect(
      (await notes("delete_note", { id: Number(uri.split("-")[1]) })).final?.result.content[0].text,
    ).toMatch(/Deleted/);
    expect((await call("resources/read", { uri }, { server: "notes" })).final?.error.code).toBe(
      -32602,
    );
  });

  it("deletes idempotently: a second delete of the same note succeeds and says nothing changed", async () => {
    const created = await notes("create_note", { title: "Twice", body: "x" });
    const id = Number(created.final?.result.content[1].uri.split("-")[1]);
    await notes("delete_note", { id });
    const again = await notes("delete_note", { id });
    expect(again.final?.result.isError).toBeUndefined();
    expect(again.final?.result.content[0].text).toBe(
      `There is no note ${id} (already deleted, or never created); nothing changed.`,
    );
    const listed = await call("resources/list", {}, { server: "notes" });
    expect(listed.final?.result.resources.map((r: { uri: string }) => r.uri)).not.toContain(
      `notes://note-${id}`,
    );
  });

  it("filters by every tag and limits in the query, newest first", async () => {
    const marker = `bulk-${Date.now()}`;
    for (let i = 0; i < 30; i++) {
      await notes("create_note", {
        title: `${marker} ${i}`,
        body: "filler",
        tags: i % 3 === 0 ? ["bulk", "third"] : ["bulk"],
      });
    }
    const limited = await notes("search_notes", { query: marker, tags: ["bulk"], limit: 4 });
    expect(limited.final?.result.content[0].text).toBe("4 notes match.");
    const both = await notes("search_notes", { query: marker, tags: ["third", "bulk"], limit: 50 });
    const names = both.final?.result.content.slice(1).map((l: { name: string }) => l.name);
    expect(names).toHaveLength(10);
    expect(names.every((n: string) => Number(n.split(" ")[1]) % 3 === 0)).toBe(true);
    const none = await notes("search_notes", { query: marker, tags: ["bulk", "missing"] });
    expect(none.final?.result.content[0].text).toBe("No notes match.");
  });
});

describe("the ops server", () => {
  it("streams build progress at every step", async () => {
    const reply = await ops(
      "run_build",
      { project: "web", steps: 4, step_ms: 5 },
      { meta: { progressToken: "b" } },
    );
    const progress = reply.messages
      .filter((m) => m.method === "notifications/progress")
      .map((m) => m.params.progress);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(reply.final?.result.structuredContent).toMatchObject({ project: "web", steps: 4 });
  });

  it("asks for confirmation before deploying, and deploys once confirmed", async () => {
    const caps = { elicitation: {} };
    const first = await ops(
      "deploy_release",
      { version: "1.2.3", environment: "production" },
      { capabilities: caps },
    );
    expect(first.final?.result.inputRequests.confirmation.params.message).toBe(
      "Deploy 1.2.3 to production?",
    );
    const done = await call(
      "tools/call",
      {
        name: "deploy_release",
        arguments: { version: "1.2.3", environment: "production" },
        requestState: first.final?.result.requestState,
        inputResponses: {
          confirmation: { action: "accept", content: { confirm: true, note: "ship it" } },
        },
      },
      { server: "ops", capabilities: caps, headers: ALICE },
    );
    expect(done.final?.result.content[0].text).toBe("Deployed 1.2.3 to production. Note: ship it");
  });

  it("does nothing when the deployment is declined", async () => {
    const args = { version: "1.2.3", environment: "staging" };
    const options = { server: "ops", capabilities: { elicitation: {} }, headers: ALICE };
    const first = await ops("deploy_release", args, options);
    const { final } = await call(
      "tools/call",
      {
        name: "deploy_release",
        arguments: args,
        requestState: first.final?.result.requestState,
        inputResponses: { confirmation: { action: "decline" } },
      },
      options,
    );
    expect(final?.result.content[0].text).toMatch(/not confirmed; nothing changed/);
  });

  it("runs scan_repo as a task for clients with the tasks extension", async () => {
    const { final } = await ops(
      "scan_repo",
      { repo: "acme/app", files: 3, file_ms: 1 },
      { capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    );
    expect(final?.result).toMatchObject({
      resultType: "task",
      status: "working",
      pollIntervalMs: 1000,
    });
  });

  it("streams scan_repo progress for other clients", async () => {
    const reply = await ops(
      "scan_repo",
      { repo: "acme/app", files: 14, file_ms: 1 },
      { meta: { progressToken: 1 } },
    );
    expect(reply.messages.filter((m) => m.method === "notifications/progress")).toHaveLength(14);
    expect(reply.final?.result.structuredContent.findings).toHaveLength(2);
  });
});

import { describe, expect, it } from "vitest";
import { analytics } from "../../../worker/servers/analytics/index.ts";
import { notes } from "../../../worker/servers/notes/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

/** A D1 binding whose every statement fails, as a database that is down or overloaded. */
const downDatabase = {
  prepare: () => {
    throw new Error("D1_ERROR: Network connection lost.");
  },
  batch: () => Promise.reject(new Error("D1_ERROR: Network connection lost.")),
  exec: () => Promise.reject(new Error("D1_ERROR: Network connection lost.")),
  withSession: () => downDatabase,
  dump: () => Promise.reject(new Error("D1_ERROR: Network connection lost.")),
};

/** Calls the notes server's search_notes tool, which reads its database. */
const searchNotes = (server: ReturnType<typeof serve>) =>
  server.send(
    mcpRequest(
      "tools/call",
      { name: "search_notes", arguments: { query: "x" } },
      { server: "notes" },
    ),
    "tools/call",
  );

describe("a D1 database that fails", () => {
  it("gives the caller a tool error naming the tool; the same server with its database answers", async () => {
    const broken = serve(notes, {}, { NOTES_DB: downDatabase });
    const failed = await searchNotes(broken);
    expect(failed.status).toBe(200);
    expect(failed.final?.result.isError).toBe(true);
    expect(failed.final?.result.content[0].text).toMatch(/^Tool "search_notes" failed/);
    expect(failed.final?.result.content[0].text).not.toMatch(/\bat |\.ts:\d|D1_ERROR/);

    const working = serve(notes);
    const found = await searchNotes(working);
    expect(found.final?.result.isError).toBeUndefined();
  });

  it("answers a listing that needs the failing database with an error that tells nothing inside", async () => {
    const broken = serve(analytics, {}, { ANALYTICS_DB: downDatabase });
    const listed = await broken.send(
      mcpRequest("resources/list", {}, { server: "analytics" }),
      "resources/list",
    );
    // A list has no tool-error form: the failure is the generic internal error, no details.
    expect(listed.final?.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /^Internal error: the server failed while handling this request \(correlation id [0-9a-f]+\)\.$/,
      ),
    });
    expect(JSON.stringify(listed.final)).not.toContain("D1_ERROR");
    const tools = await broken.send(
      mcpRequest("tools/list", {}, { server: "analytics" }),
      "tools/list",
    );
    expect(tools.final?.result.tools.length).toBeGreaterThan(0);
    const working = serve(analytics);
    const fine = await working.send(
      mcpRequest("resources/list", {}, { server: "analytics" }),
      "resources/list",
    );
    expect(fine.final?.result.resources.length).toBeGreaterThan(0);
  });
});

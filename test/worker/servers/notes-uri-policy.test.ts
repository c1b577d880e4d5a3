import { describe, expect, it } from "vitest";
import { accessPolicy } from "../../../worker/auth/policy.ts";
import { notes } from "../../../worker/servers/notes/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { serve } from "../custom-server.ts";

// A deny rule on one note, as an operator would write it: by its URI.
const guarded = serve(notes, {
  policy: accessPolicy({
    rules: [{ who: "*", methods: ["resources/*"], names: ["notes://note-1"], effect: "deny" }],
  }),
});

const read = (uri: string) =>
  guarded.send(mcpRequest("resources/read", { uri }, { server: "notes" }), "resources/read");

describe("a URI rule decides on the resource, whatever its spelling", () => {
  it.each(["notes://note-1", "notes://note-%31", "notes://note-%31%30"])(
    "refuses %s under a deny on its note",
    async (uri) => {
      const expected = uri === "notes://note-%31%30" ? 200 : 403;
      expect((await read(uri)).status).toBe(expected);
    },
  );

  it.each(["notes://note-01", "notes://note-001", "notes://note-+1", "notes://note-1.0"])(
    "reads no note at %s: a note has one spelling",
    async (uri) => {
      const { status, final } = await read(uri);
      expect(status === 403 || final?.error !== undefined).toBe(true);
      expect(final?.result?.contents).toBeUndefined();
    },
  );

  it("still reads the other notes", async () => {
    const { final } = await read("notes://note-2");
    expect(final?.result.contents[0].text).toMatch(/^# /);
  });
});

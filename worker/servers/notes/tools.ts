import * as z from "zod";
import { tool, toolResult, ToolError, type ContentBlock } from "../../mcp/index.ts";
import { noteUri, NoteStore, type Note } from "./store.ts";

const Tags = z.array(z.string().min(1).max(40)).max(20);

const link = (note: Note): ContentBlock => ({
  type: "resource_link",
  uri: noteUri(note.id),
  name: note.title,
  description: note.body.split("\n")[0]?.slice(0, 120),
  mimeType: "text/markdown",
});

const missing = (id: number) =>
  new ToolError(`There is no note ${id}. Use search_notes to find notes.`);

export const tools = [
  tool({
    name: "create_note",
    title: "Create a note",
    description: "Creates a Markdown note with tags; it becomes the resource notes://note-<id>",
    input: z.object({
      title: z.string().min(1).max(200),
      body: z.string().max(50_000),
      tags: Tags.default([]),
    }),
    annotations: { destructiveHint: false, openWorldHint: false },
    run: async ({ title, body, tags }, ctx) => {
      const note = await new NoteStore(ctx.env.NOTES_DB).create(title, body, tags);
      await ctx.notify.resourcesListChanged();
      return [{ type: "text", text: `Created note ${note.id}.` }, link(note)];
    },
  }),
  tool({
    name: "edit_note",
    title: "Edit a note",
    description: "Changes a note's title, body or tags; subscribers of notes://note-<id> are told",
    input: z.object({
      id: z.number().int(),
      title: z.string().min(1).max(200).optional(),
      body: z.string().max(50_000).optional(),
      tags: Tags.optional(),
    }),
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async ({ id, ...changes }, ctx) => {
      const note = await new NoteStore(ctx.env.NOTES_DB).update(id, changes);
      if (!note) throw missing(id);
      await ctx.notify.resourceUpdated(noteUri(id));
      // The list shows titles and tags.
      if (changes.title !== undefined || changes.tags !== undefined)
        await ctx.notify.resourcesListChanged();
      return [{ type: "text", text: `Updated note ${id}.` }, link(note)];
    },
  }),
  tool({
    name: "delete_note",
    title: "Delete a note",
    description:
      "Deletes a note for good. Deleting a note that is already gone succeeds and changes nothing, so a retry is safe",
    input: z.object({ id: z.number().int() }),
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id }, ctx) => {
      // Idempotent: a retry after a lost answer must not fail, so a missing note is a no-op.
      if (!(await new NoteStore(ctx.env.NOTES_DB).delete(id)))
        return `There is no note ${id} (already deleted, or never created); nothing changed.`;
      await ctx.notify.resourceUpdated(noteUri(id));
      await ctx.notify.resourcesListChanged();
      return `Deleted note ${id}.`;
    },
  }),
  tool({
    name: "search_notes",
    title: "Search notes",
    description:
      "Finds notes by text and tags and returns links to them; read the ones you need as resources",
    input: z.object({
      query: z.string().max(200).default("").describe("Text to look for in titles and bodies"),
      tags: Tags.default([]).describe("Only notes carrying all of these tags"),
      limit: z.number().int().min(1).max(50).default(20),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ query, tags, limit }, ctx) => {
      const found = await new NoteStore(ctx.env.NOTES_DB).search(query, tags, limit);
      const summary =
        found.length === 0
          ? "No notes match."
          : found.length === 1
            ? "1 note matches."
            : `${found.length} notes match.`;
      return toolResult({ content: [{ type: "text", text: summary }, ...found.map(link)] });
    },
  }),
];

import { defineServer, listenStreams, resourceTemplate, sealing } from "../../mcp/index.ts";
import { noteUri, NoteStore } from "./store.ts";
import { tools } from "./tools.ts";

const markdown = (note: { title: string; body: string; tags: string[]; updated_at: string }) =>
  `# ${note.title}\n\n_tags: ${note.tags.join(", ") || "none"} · updated ${note.updated_at}_\n\n${note.body}\n`;

/**
 * The notes server: a small knowledge base on D1. Search is a tool that returns links; the
 * notes are resources read on demand; edits are announced on listen streams.
 */
export const notes = defineServer({
  name: "edgemcp-notes",
  version: "0.1.0",
  title: "Notes (D1)",
  description: "Markdown notes with tags, as resources, with search and change notifications.",
  instructions:
    "Use search_notes to find notes, then read the notes://note-<id> resources it links to.",
  cache: { ttlMs: 0, cacheScope: "public" },
  tools,
  // Edits are announced to listen streams.
  listen: listenStreams,
  // The notes are listed from the database, past one page once there are many (sealed cursors).
  sealing,
  resourceTemplates: [
    resourceTemplate({
      uriTemplate: "notes://note-{id}",
      name: "note",
      title: "Note",
      description: "One note, as Markdown",
      mimeType: "text/markdown",
      list: async (ctx) =>
        (await new NoteStore(ctx.env.NOTES_DB).list()).map((note) => ({
          uri: noteUri(note.id),
          name: note.title,
          description: note.tags.length > 0 ? `Tags: ${note.tags.join(", ")}` : "Untagged",
          mimeType: "text/markdown",
        })),
      complete: {
        id: async (value, _context, ctx) =>
          (await new NoteStore(ctx.env.NOTES_DB).ids())
            .map(String)
            .filter((id) => id.startsWith(value)),
      },
      read: async ({ id }, _uri, ctx) => {
        // One spelling per note (no leading zeros), so a rule on notes://note-1 meets every read of it.
        const note = /^[1-9]\d*$/.test(id)
          ? await new NoteStore(ctx.env.NOTES_DB).get(Number(id))
          : undefined;
        return note && markdown(note);
      },
    }),
  ],
});

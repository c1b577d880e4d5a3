import * as z from "zod";

const NoteSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

type Row = Omit<Note, "tags"> & { tags: string };

const toNote = (row: Row): Note => NoteSchema.parse({ ...row, tags: JSON.parse(row.tags) });

/** A note as the resource list shows it: no body. */
type ListedNote = Pick<Note, "id" | "title" | "tags">;

function tagsOf(json: string): string[] {
  const tags: unknown = JSON.parse(json);
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string"))
    throw new Error(`The notes table holds malformed tags: ${json}`);
  return tags;
}

export const noteUri = (id: number) => `notes://note-${id}`;

/** The notes table, one method per operation the tools and resources need. */
export class NoteStore {
  constructor(private readonly db: D1Database) {}

  /** Every note's id, title and tags, by id. */
  async list(): Promise<ListedNote[]> {
    const { results } = await this.db
      .prepare("SELECT id, title, tags FROM notes ORDER BY id")
      .all<Pick<Row, "id" | "title" | "tags">>();
    return results.map((row) => ({ ...row, tags: tagsOf(row.tags) }));
  }

  /** Every note's id, in order. */
  async ids(): Promise<number[]> {
    const { results } = await this.db.prepare("SELECT id FROM notes ORDER BY id").all<{
      id: number;
    }>();
    return results.map((row) => row.id);
  }

  async get(id: number): Promise<Note | undefined> {
    const row = await this.db.prepare("SELECT * FROM notes WHERE id = ?1").bind(id).first<Row>();
    return row ? toNote(row) : undefined;
  }

  async create(title: string, body: string, tags: string[]): Promise<Note> {
    const now = new Date().toISOString();
    const row = await this.db
      .prepare(
        "INSERT INTO notes (title, body, tags, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4) RETURNING *",
      )
      .bind(title, body, JSON.stringify(tags), now)
      .first<Row>();
    if (!row) throw new Error("INSERT … RETURNING gave no row");
    return toNote(row);
  }

  /** Changes the given fields in one statement; undefined when there is no note `id`. */
  async update(
    id: number,
    changes: { title?: string; body?: string; tags?: string[] },
  ): Promise<Note | undefined> {
    const row = await this.db
      .prepare(
        "UPDATE notes SET title = coalesce(?2, title), body = coalesce(?3, body), tags = coalesce(?4, tags), updated_at = ?5 WHERE id = ?1 RETURNING *",
      )
      .bind(
        id,
        changes.title ?? null,
        changes.body ?? null,
        changes.tags ? JSON.stringify(changes.tags) : null,
        new Date().toISOString(),
      )
      .first<Row>();
    return row ? toNote(row) : undefined;
  }

  async delete(id: number): Promise<boolean> {
    const { meta } = await this.db.prepare("DELETE FROM notes WHERE id = ?1").bind(id).run();
    return meta.changes > 0;
  }

  /**
   * Notes whose title or body contains `query` (case-insensitive) and that carry every tag, newest
   * first, at most `limit`: filtered and limited in SQL, so memory does not grow with the table.
   */
  async search(query: string, tags: string[], limit: number): Promise<Note[]> {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { results } = await this.db
      .prepare(
        `SELECT * FROM notes
         WHERE (title LIKE ?1 ESCAPE '\\' OR body LIKE ?1 ESCAPE '\\')
           AND NOT EXISTS (
             SELECT 1 FROM json_each(?2) AS wanted
             WHERE wanted.value NOT IN (SELECT value FROM json_each(notes.tags))
           )
         ORDER BY updated_at DESC, id DESC
         LIMIT ?3`,
      )
      .bind(pattern, JSON.stringify(tags), limit)
      .all<Row>();
    return results.map(toNote);
  }
}

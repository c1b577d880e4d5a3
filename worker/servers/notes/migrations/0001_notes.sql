-- Notes for the notes example server: Markdown bodies with tags, exposed as notes://note-<id>.
CREATE TABLE notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

INSERT INTO notes (title, body, tags, created_at, updated_at) VALUES
  ('Welcome', 'Notes live in D1. Search them with `search_notes`, read them as `notes://note-<id>` resources.', '["intro"]', '2026-11-01T09:00:00Z', '2026-11-01T09:00:00Z'),
  ('On-call checklist', '1. Acknowledge the page' || char(10) || '2. Open an incident channel' || char(10) || '3. Check the error-log dashboard', '["ops","runbook"]', '2026-11-02T10:00:00Z', '2026-11-02T10:00:00Z'),
  ('Release process', 'Tag the release, run `deploy_release`, watch the canary for 15 minutes.', '["ops","release"]', '2026-11-03T11:00:00Z', '2026-11-03T11:00:00Z');

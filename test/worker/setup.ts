import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

// The D1 databases start from the same migrations `npm start` applies.
const migrations = Reflect.get(env, "TEST_MIGRATIONS") as Record<
  "ANALYTICS_DB" | "NOTES_DB",
  D1Migration[]
>;
await applyD1Migrations(env.ANALYTICS_DB, migrations.ANALYTICS_DB);
await applyD1Migrations(env.NOTES_DB, migrations.NOTES_DB);

import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

// The analytics database starts from the same migrations `npm start` applies.
await applyD1Migrations(env.ANALYTICS_DB, Reflect.get(env, "TEST_MIGRATIONS") as D1Migration[]);

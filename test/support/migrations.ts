/** Each D1 binding and where its migrations live; tests start from the same schema as `npm start`. */
export const MIGRATIONS = {
  ANALYTICS_DB: "worker/servers/analytics/migrations",
  NOTES_DB: "worker/servers/notes/migrations",
};

/**
 * The read-only guard's corpus: ordinary reads that must run (with the rows they answer, from
 * the seeded analytics database), and writes, escapes and unbounded work that must be refused
 * (with what the refusal says). `analytics-sql.test.ts` runs each through `execute_query`.
 */

export type Read = { what: string; sql: string; rows: number; first?: Record<string, unknown> };
export type Refusal = { what: string; sql: string; says: RegExp };

export const reads: Read[] = [
  { what: "a plain select", sql: "SELECT id FROM users WHERE id <= 3", rows: 3 },
  {
    what: "string functions over a table: replace, hex, substr, group_concat",
    sql: "SELECT country, group_concat(substr(replace(upper(name), ' ', '_'), 1, 20), ', ') AS names, max(hex(id)) AS h FROM users GROUP BY country ORDER BY country",
    rows: 7,
  },
  {
    what: "a replace() that lengthens a little, over every error log",
    sql: "SELECT count(*) AS n FROM error_logs WHERE length(replace(message, ' ', '  ')) > 0",
    rows: 1,
  },
  {
    what: "DISTINCT",
    sql: "SELECT DISTINCT country FROM users ORDER BY country",
    rows: 7,
    first: { country: "BR" },
  },
  {
    what: "DISTINCT over a join",
    sql: "SELECT DISTINCT u.plan FROM users u JOIN orders o ON o.user_id = u.id ORDER BY 1",
    rows: 3,
  },
  {
    what: "IN (subquery)",
    sql: "SELECT count(*) AS n FROM users WHERE id IN (SELECT user_id FROM orders WHERE status = 'refunded')",
    rows: 1,
  },
  {
    what: "NOT IN (subquery) and EXISTS",
    sql: "SELECT count(*) AS n FROM users u WHERE id NOT IN (SELECT user_id FROM orders) OR EXISTS (SELECT 1 FROM incidents WHERE service = 'api')",
    rows: 1,
    first: { n: 200 },
  },
  {
    what: "ORDER BY … LIMIT",
    sql: "SELECT id, amount_cents FROM orders ORDER BY amount_cents DESC, id LIMIT 5",
    rows: 5,
  },
  {
    what: "a grouped, filtered and sorted query",
    sql: "SELECT service, level, count(*) AS n FROM error_logs GROUP BY service, level HAVING n > 10 ORDER BY n DESC, service, level",
    rows: 18,
  },
  {
    what: "a join grouped by customer",
    sql: "SELECT u.id, u.name, sum(o.amount_cents) AS total FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.id ORDER BY total DESC LIMIT 10",
    rows: 10,
  },
  {
    what: "a bounded recursive CTE",
    sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT count(*) AS c, sum(i) AS s FROM n",
    rows: 1,
    first: { c: 100, s: 5050 },
  },
  {
    what: "a recursive CTE bounded by LIMIT, joined to a table",
    sql: "WITH RECURSIVE d(day) AS (SELECT '2026-10-01' UNION ALL SELECT date(day, '+1 day') FROM d LIMIT 7) SELECT d.day, count(e.id) AS n FROM d LEFT JOIN error_logs e ON e.ts >= d.day AND e.ts < date(d.day, '+1 day') GROUP BY d.day ORDER BY d.day",
    rows: 7,
  },
  {
    what: "a non-recursive CTE used twice",
    sql: "WITH big AS (SELECT user_id, count(*) AS n FROM orders GROUP BY user_id) SELECT (SELECT max(n) FROM big) AS most, (SELECT min(n) FROM big) AS least",
    rows: 1,
  },
  {
    what: "a correlated scalar subquery",
    sql: "SELECT id, (SELECT count(*) FROM orders o WHERE o.user_id = users.id) AS orders FROM users ORDER BY id LIMIT 3",
    rows: 3,
  },
  {
    what: "a window function",
    sql: "SELECT id, amount_cents, rank() OVER (PARTITION BY currency ORDER BY amount_cents DESC) AS r FROM orders ORDER BY id LIMIT 5",
    rows: 5,
  },
  {
    what: "UNION and UNION ALL",
    sql: "SELECT service FROM incidents UNION SELECT service FROM error_logs UNION ALL SELECT 'extra'",
    rows: 10,
  },
  { what: "VALUES", sql: "VALUES (1, 'a'), (2, 'b')", rows: 2 },
  { what: "a trailing semicolon", sql: "SELECT 1 AS one;", rows: 1, first: { one: 1 } },
  {
    what: "write keywords inside strings, names and comments",
    sql: "SELECT 'DROP TABLE users; --' AS \"update\", replace(email, '@', ' at ') AS mail /* DELETE */ FROM users WHERE id = 1 -- INSERT",
    rows: 1,
    first: { update: "DROP TABLE users; --" },
  },
  {
    what: "JSON and date functions",
    sql: "SELECT json_object('id', id, 'month', strftime('%Y-%m', created_at)) AS j FROM orders WHERE id = 1",
    rows: 1,
  },
  {
    what: "a read-only table-valued pragma function",
    sql: "SELECT name FROM pragma_table_info('users') ORDER BY cid",
    rows: 6,
  },
  {
    what: "parameter-like text inside strings and names",
    sql: `SELECT '?1 :a @b $c' AS "x?:y", json_extract('{"a":1}', '$.a') AS v FROM users WHERE id = 1`,
    rows: 1,
    first: { "x?:y": "?1 :a @b $c", v: 1 },
  },
  {
    what: "JSON read with scalar functions",
    sql: `SELECT json_extract('{"a":[1,2,3]}', '$.a[1]') AS v, json_array_length('[1,2,3]') AS n`,
    rows: 1,
    first: { v: 2, n: 3 },
  },
  {
    what: "printf with a written width",
    sql: "SELECT printf('%05d|%.2f', id, 1.5) AS p FROM users WHERE id = 7",
    rows: 1,
    first: { p: "00007|1.50" },
  },
  {
    what: "a range over an index",
    sql: "SELECT count(*) AS n FROM error_logs WHERE ts >= '2026-10-10' AND ts < '2026-10-11'",
    rows: 1,
  },
  {
    what: "a self-join on an index",
    sql: "SELECT count(*) AS n FROM error_logs a JOIN error_logs b ON b.incident_id = a.incident_id WHERE a.id <= 50",
    rows: 1,
  },
  {
    what: "a join SQLite indexes on the fly",
    sql: "SELECT count(*) AS n FROM error_logs a JOIN error_logs b ON a.message = b.message WHERE a.id < 100",
    rows: 1,
  },
  {
    what: "EXPLAIN QUERY PLAN of a costly query",
    sql: "EXPLAIN QUERY PLAN SELECT * FROM error_logs a, error_logs b",
    rows: 2,
  },
];

export const refusals: Refusal[] = [
  { what: "INSERT", sql: "INSERT INTO users (id) VALUES (999)", says: /starts with INSERT/ },
  { what: "UPDATE", sql: "UPDATE users SET plan = 'pro'", says: /starts with UPDATE/ },
  { what: "DELETE, lower case", sql: "delete from orders", says: /starts with DELETE/ },
  {
    what: "REPLACE INTO",
    sql: "REPLACE INTO users SELECT * FROM users",
    says: /starts with REPLACE/,
  },
  { what: "DROP", sql: "DROP TABLE users", says: /starts with DROP/ },
  { what: "CREATE TEMP TABLE", sql: "CREATE TEMP TABLE t AS SELECT 1", says: /starts with CREATE/ },
  { what: "ALTER", sql: "ALTER TABLE users ADD COLUMN x", says: /starts with ALTER/ },
  { what: "PRAGMA", sql: "PRAGMA writable_schema = 1", says: /starts with PRAGMA/ },
  { what: "ATTACH", sql: "ATTACH DATABASE 'file:x' AS x", says: /starts with ATTACH/ },
  { what: "DETACH", sql: "DETACH DATABASE x", says: /starts with DETACH/ },
  { what: "VACUUM INTO", sql: "VACUUM INTO '/tmp/copy.db'", says: /starts with VACUUM/ },
  { what: "REINDEX", sql: "REINDEX users", says: /starts with REINDEX/ },
  { what: "ANALYZE", sql: "ANALYZE", says: /starts with ANALYZE/ },
  { what: "BEGIN", sql: "BEGIN IMMEDIATE", says: /starts with BEGIN/ },
  { what: "SAVEPOINT", sql: "SAVEPOINT s", says: /starts with SAVEPOINT/ },
  {
    what: "INSERT inside a CTE",
    sql: "WITH x AS (SELECT 1) INSERT INTO users SELECT * FROM users",
    says: /contains INSERT/,
  },
  {
    what: "UPDATE after a CTE",
    sql: "WITH x AS (SELECT 1) UPDATE users SET plan = 'pro'",
    says: /contains UPDATE/,
  },
  {
    what: "DELETE after a recursive CTE",
    sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) DELETE FROM users WHERE id IN n",
    says: /contains DELETE/,
  },
  {
    what: "an upsert after a CTE",
    sql: "WITH x AS (SELECT 1) INSERT INTO users (id) VALUES (1) ON CONFLICT DO NOTHING",
    says: /contains INSERT/,
  },
  { what: "a second statement", sql: "SELECT 1; DELETE FROM users", says: /one statement/ },
  { what: "two reads", sql: "SELECT 1; SELECT 2", says: /one statement/ },
  {
    what: "a statement after a comment that hides a semicolon",
    sql: "SELECT 1 /* ; */; DROP TABLE users",
    says: /one statement/,
  },
  {
    what: "a statement after a line comment",
    sql: "SELECT 1 -- harmless\n; DROP TABLE users",
    says: /one statement/,
  },
  {
    what: "a statement after a string holding a semicolon",
    sql: "SELECT ';' ; DROP TABLE users",
    says: /one statement/,
  },
  {
    what: "a write behind leading comments",
    sql: "/* tidy */ -- up\nDELETE FROM users",
    says: /starts with DELETE/,
  },
  {
    what: "a write glued to a quoted name",
    sql: 'WITH "x"AS(SELECT 1)DELETE FROM users',
    says: /contains DELETE/,
  },
  { what: "EXPLAIN of a write", sql: "EXPLAIN DELETE FROM users", says: /contains DELETE/ },
  { what: "load_extension", sql: "SELECT load_extension('/tmp/evil.so')", says: /LOAD_EXTENSION/ },
  { what: "an unterminated comment", sql: "SELECT 1 /* DROP TABLE users", says: /unterminated/ },
  { what: "an unterminated string", sql: "SELECT 'abc", says: /unterminated/ },
  { what: "an empty query", sql: "  ;  ", says: /empty/ },
  {
    what: "a cartesian product",
    sql: "SELECT count(*) FROM error_logs a, error_logs b, error_logs c",
    says: /too costly.*error_logs a × error_logs b × error_logs c/,
  },
  {
    what: "a correlated subquery that scans per row",
    sql: "SELECT id, (SELECT count(*) FROM error_logs b WHERE b.message = a.message) FROM error_logs a",
    says: /too costly/,
  },
  {
    what: "an unbounded recursive CTE",
    sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n",
    says: /recursive CTE n produces more than 100,000 rows/,
  },
  {
    what: "a recursive CTE with a bound too large",
    sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000000) SELECT max(i) FROM n",
    says: /recursive CTE n produces more than/,
  },
  {
    what: "a row bigger than a page",
    sql: "SELECT id, zeroblob(300000) AS blob FROM users WHERE id = 1",
    says: /Row 1 holds about 300,00\d bytes/,
  },
  {
    what: "a loop over json_each of a generated string (150,000 elements, counted as a table)",
    sql: "SELECT count(*) FROM json_each('[' || replace(hex(zeroblob(150000)), '00', '0,') || '0]') a, users b",
    says: /table-valued function json_each is not allowed/,
  },
  {
    what: "json_tree called by a quoted name",
    sql: `SELECT count(*) FROM "JSON_TREE"('[1]') t, [json_each]('[2]')`,
    says: /table-valued function json_tree is not allowed/,
  },
  {
    what: "json_each over a column",
    sql: "SELECT count(*) FROM users, json_each(users.name) j",
    says: /json_each is not allowed/,
  },
  {
    what: "a blob sized by a column, made per row",
    sql: "SELECT count(*) FROM error_logs a WHERE length(hex(zeroblob(1000000 + a.id))) > 0",
    says: /zeroblob\(\) takes a whole-number literal/,
  },
  {
    what: "random blobs times the rows visited",
    sql: "SELECT max(length(randomblob(100000) || a.id)) FROM error_logs a",
    says: /makes too many bytes: about 100,000 per row .* over about 4,000 rows/,
  },
  {
    what: "a printf width taken from an argument",
    sql: "SELECT printf('%.*c', 100000000, 'x')",
    says: /widths must be written in its pattern/,
  },
  {
    what: "a printf width written wide, times the rows",
    sql: "SELECT length(printf('%1000000d', a.id)) FROM error_logs a, users b",
    says: /makes too many bytes/,
  },
  {
    what: "parameter tokens (?, ?1, :name, @name, $name)",
    sql: "SELECT id FROM users WHERE id = ?1 OR name = :name OR email = @e OR plan = $p OR 1 = ?",
    says: /parameters .*are not supported/,
  },
  {
    what: "a printf pattern that is not a literal",
    sql: "SELECT printf(message, id) FROM error_logs",
    says: /take their pattern as a string literal/,
  },
  {
    what: "six nested replace() doubling a string per row of a 100,000-row recursive CTE",
    sql: "WITH RECURSIVE c(i, x) AS (SELECT 1, '0' UNION ALL SELECT i + 1, x FROM c WHERE i < 100000) SELECT count(*) FROM c WHERE length(replace(replace(replace(replace(replace(replace(x || i, '0', '00'), '0', '00'), '0', '00'), '0', '00'), '0', '00'), '0', '00')) > 0",
    says: /makes too many bytes: about [\d,]+ per row/,
  },
  {
    what: "three nested replace() over 100,000 generated rows",
    sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000) SELECT count(*) FROM c WHERE length(replace(replace(replace(hex(i), '0', '00'), '0', '00'), '0', '00')) > 0",
    says: /makes too many bytes/,
  },
  {
    what: "one replace() with a long replacement text, per row of a table",
    sql: `SELECT count(*) FROM error_logs WHERE length(replace(message, 'e', '${"x".repeat(2000)}')) > 0`,
    says: /makes too many bytes/,
  },
  {
    what: "a replacement that is not a literal, growing by a column's size",
    sql: "SELECT count(*) FROM error_logs a, users b WHERE length(replace(a.message, ' ', b.email)) > 0",
    says: /makes too many bytes/,
  },
  {
    what: "hex() nested over generated rows",
    sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000) SELECT count(*) FROM c WHERE length(hex(hex(hex(hex(printf('%d', i)))))) > 0",
    says: /makes too many bytes/,
  },
  {
    what: "json_pretty, whose output grows with its input's nesting",
    sql: "SELECT json_pretty(json_array(id, name), '          ') FROM users",
    says: /json_pretty\(\) is not allowed/,
  },
  {
    what: "parentheses nested deeper than SQLite allows",
    sql: `SELECT ${"(".repeat(1001)}1${")".repeat(1001)} AS n`,
    says: /nests parentheses more than 1,?000 deep/,
  },
  {
    what: "a recursive CTE lengthening a string by || each step (quadratic in the steps)",
    sql: "WITH RECURSIVE c(i, s) AS (SELECT 1, 'x' UNION ALL SELECT i + 1, s || 'xxxxxxxxxx' FROM c WHERE i < 100000) SELECT max(length(s)) FROM c",
    says: /recursive CTE c makes strings .* can grow each time/,
  },
  {
    what: "a recursive CTE doubling a string by replace() each step",
    sql: "WITH RECURSIVE c(i, s) AS (SELECT 1, 'x' UNION ALL SELECT i + 1, replace(s, 'x', 'xx') FROM c WHERE i < 40) SELECT max(length(s)) FROM c",
    says: /recursive CTE c makes strings/,
  },
];

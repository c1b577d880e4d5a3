/**
 * The real D1 binding, with every statement prepared on it recorded (in order) and, when
 * `hold` matches a statement, its run held until the test releases it (or failed, with `fail`):
 * to see what reached the database, to keep a query in flight while another request arrives,
 * and to see what a passing D1 failure does.
 */
export function meteredD1(db: D1Database) {
  const statements: string[] = [];
  let held: { match: RegExp; reached: () => void; release: Promise<void> } | undefined;
  let failing: { match: RegExp; error: Error } | undefined;
  const holdRun = (sql: string, run: () => Promise<unknown>) => {
    if (failing?.match.test(sql)) {
      const { error } = failing;
      failing = undefined;
      return Promise.reject(error);
    }
    if (!held || !held.match.test(sql)) return run();
    const { reached, release } = held;
    held = undefined;
    reached();
    return release.then(run);
  };
  const prepare = (sql: string): D1PreparedStatement => {
    statements.push(sql);
    const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
      new Proxy(statement, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key, target);
          if (typeof value !== "function") return value;
          if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
          return (...args: unknown[]) =>
            holdRun(sql, () =>
              (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
            );
        },
      });
    return wrap(db.prepare(sql));
  };
  const binding = new Proxy(db, {
    get(target, key) {
      if (key === "prepare") return prepare;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    binding,
    statements,
    /** Fails the next statement matching `match` with `error`, as D1 failing to answer would. */
    fail(match: RegExp, error: Error): void {
      failing = { match, error };
    },
    /**
     * Holds the next statement matching `match` before it runs: resolves once one reached the
     * database, with the function that lets it run.
     */
    hold(match: RegExp): Promise<() => void> {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      return new Promise((resolve) => {
        held = { match, reached: () => resolve(release), release: released };
      });
    },
  };
}

/** What the query code needs of D1: statements to prepare. */
export type Queryable = Pick<D1Database, "prepare">;

/** Metered views → the database they reach, so what is cached per database stays shared. */
const databases = new WeakMap<Queryable, Queryable>();

/** The database `db` reaches: itself, or the one a metered view wraps. */
export const databaseOf = (db: Queryable): Queryable => databases.get(db) ?? db;

/**
 * `db`, with the database time of every statement run through it passed to `charge`: the
 * duration D1 reports for `all()` and `run()` (the statement's own time, not its wait for a
 * turn), and the time until the answer for `raw()` and `first()`, which report none, and for a
 * failure.
 */
export function meteredDb(db: Queryable, charge: (ms: number) => void): Queryable {
  const timed = async <T>(run: () => Promise<T>, reported: (result: T) => unknown) => {
    const started = Date.now();
    try {
      const result = await run();
      const duration = reported(result);
      charge(typeof duration === "number" ? duration : Date.now() - started);
      return result;
    } catch (error) {
      charge(Date.now() - started);
      throw error;
    }
  };
  // `raw` and `first` are overloaded by their argument; each passes the call on as it came.
  const statement = (inner: D1PreparedStatement): D1PreparedStatement =>
    ({
      bind: (...values: unknown[]) => statement(inner.bind(...values)),
      all: () => timed(() => inner.all(), duration),
      run: () => timed(() => inner.run(), duration),
      raw: (options?: { columnNames?: boolean }) =>
        timed(() => (options?.columnNames ? inner.raw({ columnNames: true }) : inner.raw()), none),
      first: (column?: string) =>
        timed(() => (column === undefined ? inner.first() : inner.first(column)), none),
    }) as unknown as D1PreparedStatement;
  const metered: Queryable = { prepare: (sql: string) => statement(db.prepare(sql)) };
  databases.set(metered, databaseOf(db));
  return metered;
}

const duration = (result: D1Result): unknown => result.meta?.duration;
const none = (): undefined => undefined;

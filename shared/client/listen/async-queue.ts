type Waiter<T> = {
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: unknown) => void;
};

/** A push-fed async iterator: items wait for a reader, readers wait for items. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private readonly waiters: Waiter<T>[] = [];
  private finished = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.finished) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ value: item, done: false });
    else this.items.push(item);
  }

  /** Ends the queue: readers get what is queued, then `done`. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const waiter of this.waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  /** Ends the queue with an error, raised after what is queued. */
  fail(error: unknown): void {
    if (this.finished) return;
    this.failure = { error };
    this.finished = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.failure) {
      const { error } = this.failure;
      this.failure = undefined;
      return Promise.reject(error);
    }
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }
}

// One statement at a time per lane (a bucket, a key, a record): the first request starts one at
// once; requests arriving while it is in flight wait and are served together by the next one
// (docs/decisions.md#rate-limits-in-postgresql). A request never joins a statement that started
// before it arrived, so it always sees every write acknowledged before it arrived.

/** One request waiting for its lane's next statement. */
export interface Waiter<T> {
  nowMs: number;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/**
 * Runs `count(waiters)` for the requests of one lane (bucket or key, and window), one statement at
 * a time: the first request starts at once, later ones are counted together by the next run.
 */
export function createLanes<T>() {
  const lanes = new Map<string, Waiter<T>[]>();
  return (lane: string, nowMs: number, count: (waiters: Waiter<T>[]) => Promise<T[]>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const queued = lanes.get(lane);
      if (queued) {
        queued.push({ nowMs, resolve, reject });
        return;
      }
      const waiting: Waiter<T>[] = [{ nowMs, resolve, reject }];
      lanes.set(lane, waiting);
      void (async () => {
        while (waiting.length > 0) {
          const batch = waiting.splice(0);
          try {
            const results = await count(batch);
            batch.forEach((w, i) => w.resolve(results[i]!));
          } catch (error) {
            for (const w of batch) w.reject(error);
          }
        }
        lanes.delete(lane);
      })();
    });
}


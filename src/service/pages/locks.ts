// In-process locks by name: `run(key, fn)` runs fn after every earlier run with the same key has
// finished. One server owns a data dir (data-dir-lock.ts), so in-process locks are enough.

export interface Locks {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function createLocks(): Locks {
  const tails = new Map<string, Promise<void>>();
  return {
    async run(key, fn) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      await previous;
      try {
        return await fn();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}

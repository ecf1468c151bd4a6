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

/**
 * Writes in flight per project, so that a project's files are removed only after its last write:
 * `track` wraps a write, `settled` waits for every write of a project that started before it.
 */
export interface WriteTracker {
  track<T>(projectId: string, work: Promise<T>): Promise<T>;
  settled(projectId: string): Promise<void>;
}

export function createWriteTracker(): WriteTracker {
  const writing = new Map<string, Set<Promise<unknown>>>();
  return {
    track(projectId, work) {
      let set = writing.get(projectId);
      if (!set) writing.set(projectId, (set = new Set()));
      set.add(work);
      const done = () => {
        set.delete(work);
        if (set.size === 0 && writing.get(projectId) === set) writing.delete(projectId);
      };
      work.then(done, done);
      return work;
    },
    async settled(projectId) {
      await Promise.allSettled([...(writing.get(projectId) ?? [])]);
    },
  };
}

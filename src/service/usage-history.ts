// API requests per minute of each organization over the last hour, as this server process counted
// them, for the console's usage chart (docs/decisions.md#a-console-people-enjoy). The rate limiters
// keep only the current window, so the history is kept here: 60 counters per organization that
// made a request in the last hour, recycled as minutes pass (constant work per request).

export const HISTORY_MINUTES = 60;
const MINUTE_MS = 60_000;

export interface UsageMinute {
  /** Start of the minute (ISO). */
  at: string;
  requests: number;
}

export interface UsageHistory {
  /** Counts one API request of an organization. */
  record(orgId: string, nowMs?: number): void;
  /** The last hour, oldest minute first, the current minute last (always HISTORY_MINUTES entries). */
  lastHour(orgId: string, nowMs?: number): UsageMinute[];
}

interface Ring {
  /** counts[m % HISTORY_MINUTES] holds minute m, for minutes after `last - HISTORY_MINUTES`. */
  counts: number[];
  /** The newest minute counted (minutes since the epoch). */
  last: number;
}

export function createUsageHistory(): UsageHistory {
  const rings = new Map<string, Ring>();
  /** Clears the slots of minutes between the ring's newest and `minute`, then makes `minute` the newest. */
  const advance = (ring: Ring, minute: number) => {
    for (let m = Math.max(ring.last + 1, minute - HISTORY_MINUTES + 1); m <= minute; m++) ring.counts[m % HISTORY_MINUTES] = 0;
    ring.last = Math.max(ring.last, minute);
  };
  return {
    record(orgId, nowMs = Date.now()) {
      const minute = Math.floor(nowMs / MINUTE_MS);
      let ring = rings.get(orgId);
      if (!ring || ring.last <= minute - HISTORY_MINUTES) {
        // An organization idle for an hour starts afresh; drop others idle as long, so the map stays small.
        for (const [id, r] of rings) if (r.last <= minute - HISTORY_MINUTES) rings.delete(id);
        ring = { counts: new Array<number>(HISTORY_MINUTES).fill(0), last: minute };
        rings.set(orgId, ring);
      }
      advance(ring, minute);
      ring.counts[minute % HISTORY_MINUTES]++;
    },
    lastHour(orgId, nowMs = Date.now()) {
      const minute = Math.floor(nowMs / MINUTE_MS);
      const ring = rings.get(orgId);
      return Array.from({ length: HISTORY_MINUTES }, (_, i) => {
        const m = minute - HISTORY_MINUTES + 1 + i;
        const counted = ring !== undefined && m <= ring.last && m > ring.last - HISTORY_MINUTES;
        return { at: new Date(m * MINUTE_MS).toISOString(), requests: counted ? ring.counts[m % HISTORY_MINUTES] : 0 };
      });
    },
  };
}

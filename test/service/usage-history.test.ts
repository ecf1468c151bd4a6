// The console's usage chart reads the last hour of an organization's API requests per minute.
import { describe, expect, it } from 'vitest';
import { createUsageHistory, HISTORY_MINUTES } from '../../src/service/usage-history.ts';

const MIN = 60_000;
const counts = (history: ReturnType<typeof createUsageHistory>, org: string, at: number) => history.lastHour(org, at).map((m) => m.requests);

describe('usage history', () => {
  it('counts requests per minute for the last hour, per organization, and forgets older minutes', () => {
    const history = createUsageHistory();
    const t0 = 1_000 * MIN;
    for (let i = 0; i < 3; i++) history.record('a', t0 + i);
    history.record('a', t0 + MIN);
    history.record('b', t0 + MIN);
    const now = counts(history, 'a', t0 + MIN + 5);
    expect(now).toHaveLength(HISTORY_MINUTES);
    expect(now.slice(-2)).toEqual([3, 1]);
    expect(now.reduce((a, b) => a + b)).toBe(4);
    expect(history.lastHour('a', t0 + MIN).at(-1)!.at).toBe(new Date(t0 + MIN).toISOString());
    expect(counts(history, 'b', t0 + MIN).reduce((a, b) => a + b)).toBe(1);
    // 59 minutes later the first minute is still in the hour; a minute after, it is gone.
    expect(counts(history, 'a', t0 + 59 * MIN)[0]).toBe(3);
    expect(counts(history, 'a', t0 + 60 * MIN)[0]).toBe(1);
    expect(counts(history, 'a', t0 + 61 * MIN).reduce((a, b) => a + b)).toBe(0);
    // A request after a quiet half hour clears the minutes in between (their slots are reused).
    history.record('a', t0 + 30 * MIN);
    expect(counts(history, 'a', t0 + 30 * MIN).slice(-31)).toEqual([3, 1, ...new Array(28).fill(0), 1]);
    expect(counts(history, 'a', t0 + 200 * MIN).reduce((a, b) => a + b)).toBe(0);
    expect(counts(history, 'unknown', t0).every((c) => c === 0)).toBe(true);
  });
});

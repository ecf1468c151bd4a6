// Figures for the tenant-sized inputs the server works on in its event loop or keeps in memory
// (docs/decisions.md#json-positions-and-redirects-stay-linear): `npm run bench:tenant-limits`.
// Each case prints the median of a few runs; run it on two commits to compare them.
import { jsonLocations } from '../src/site/json-locations.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(runs: number, run: () => void): number {
  const times: number[] = [];
  for (let n = 0; n < runs; n++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** One docs.json key of 17,000 characters holding `items` items, written as the API writes it. */
function longKeyDocsJson(items: number): string {
  return `${JSON.stringify({ name: 'x', ['k'.repeat(17_000)]: new Array(items).fill(0) }, null, 2)}\n`;
}

const cases = process.argv.slice(2);
const wanted = (name: string) => cases.length === 0 || cases.includes(name);

if (wanted('json-locations')) {
  for (const items of [1_000, 2_000, 4_000]) {
    const text = longKeyDocsJson(items);
    const ms = timed(3, () => jsonLocations(text));
    console.log(`json-locations: ${(text.length / 1024).toFixed(0)} KB docs.json, one 17,000-character key of ${items} items: median ${ms.toFixed(1)} ms`);
  }
}

// A fast redeploy's search indexing starts while Astro runs (docs/decisions.md, "The search shard
// indexed while Astro runs"). A build stopped while Astro runs leaves no index, no half site and
// no indexing process behind, and the previous build as it was; the next fast redeploy of the same
// change indexes its shard as a full build does. Real builds (check, Astro, the sandbox when
// bubblewrap works here, Pagefind).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSiteOptions } from '../../src/builder/build.ts';
import { makeContentRoot } from './helpers.ts';

const page = (title: string, text: string) => `---\ntitle: ${title}\n---\n\n${text}\n`;
let root: string;
let previous: string;
const made: string[] = [];
const outDir = () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  made.push(out);
  // As the server's builds folder: a fast redeploy's indexing reads the output as the build's uid.
  fs.chmodSync(out, 0o755);
  return out;
};
const build = (outDir: string, more: Partial<BuildSiteOptions> = {}) => buildSite({ contentRoot: root, outDir, timeoutMs: 180_000, searchShardPages: 2, ...more });

/** Every file of a site's search index with a hash of its bytes. */
function indexOf(out: string): Map<string, string> {
  const dir = path.join(out, 'pagefind');
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const abs = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) files.set(path.relative(dir, abs), createHash('sha256').update(fs.readFileSync(abs)).digest('hex'));
  }
  return files;
}

/** The indexing processes on this machine (in the sandbox or not) that read the output folder `out`. */
function indexingProcesses(out: string): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const read = (file: string) => {
      try {
        return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
      } catch {
        return '';
      }
    };
    const named = read('cmdline') + read('environ');
    if (named.includes('search-index-worker') && named.includes(out)) pids.push(Number(pid));
  }
  return pids;
}

beforeAll(async () => {
  // Sorted by path: alpha, bravo | charlie, delta | index: three shards of two pages.
  root = makeContentRoot({
    'docs.json': JSON.stringify({ name: 'Early Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'alpha', 'bravo', 'charlie', 'delta'] }] } }),
    'content/index.mdx': page('Home', 'Welcome, the word here is harborlight.'),
    'content/alpha.mdx': page('Alpha', 'The first page speaks of quillwhistle.'),
    'content/bravo.mdx': page('Bravo', 'The second page speaks of marblefern.'),
    'content/charlie.mdx': page('Charlie', 'The third page speaks of copperbough.'),
    'content/delta.mdx': page('Delta', 'The fourth page speaks of lanternmoss.'),
  });
  made.push(root);
  previous = outDir();
  const first = await build(previous);
  expect(first.error).toBeUndefined();
  fs.writeFileSync(path.join(root, 'content/delta.mdx'), page('Delta', 'The fourth page now speaks of thistledrum.'));
}, 300_000);
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a fast redeploy\'s search shard indexed while Astro runs', () => {
  it('stopped while Astro runs, leaves no index, no site and no indexing process behind, and the previous build as it was', async () => {
    const before = indexOf(previous);
    const out = outDir();
    const stop = new AbortController();
    let runningAtStop: number[] = [];
    const result = await build(out, {
      reuse: { previousOutDir: previous, pageFiles: ['content/delta.mdx'] },
      signal: stop.signal,
      // Astro's own lines: it runs, and the indexing process (started once the output holds the previous build) waits.
      onLog: (line) => {
        if (stop.signal.aborted || !/\[(build|content|vite)\]|content sync/.test(line)) return;
        runningAtStop = indexingProcesses(out);
        stop.abort();
      },
    });
    expect(result.error?.code).toBe('canceled');
    expect(runningAtStop.length).toBeGreaterThan(0);
    expect(indexingProcesses(out)).toEqual([]);
    expect(fs.readdirSync(out)).toEqual([]);
    expect(indexOf(previous)).toEqual(before);
    expect(fs.readFileSync(path.join(previous, 'delta/index.html'), 'utf8')).toContain('lanternmoss');
  }, 200_000);

  it('the same change built fast again indexes again only its shard, and writes the index a full build writes', async () => {
    const fast = outDir();
    const result = await build(fast, { reuse: { previousOutDir: previous, pageFiles: ['content/delta.mdx'] } });
    expect(result.error).toBeUndefined();
    expect(result.log).toContain('search index: 1 of 3 shards indexed again (shard 2); 2 kept from the previous build');
    // Charlie, before delta in its shard, was added while Astro ran.
    expect(result.log.join('\n')).toMatch(/search index: time spent: .*2 pages .* \(1 of them in [\d.]+ s while Astro ran, then waited [\d.]+ s for the changes\)/);
    const full = outDir();
    expect((await build(full)).error).toBeUndefined();
    expect(indexOf(fast)).toEqual(indexOf(full));
    expect(fs.readFileSync(path.join(fast, 'delta/index.html'), 'utf8')).toContain('thistledrum');
  }, 300_000);
});

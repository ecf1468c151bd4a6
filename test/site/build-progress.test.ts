// A long build says where it is (docs/decisions.md, "Progress" under "Sites of 25,000 pages"): every few seconds a progress line in the build's log (the
// deployment log) names the step, the pages rendered of the total, and the seconds since the start.
// The interval is shortened here so a small real build shows several.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildSite } from '../../src/builder/build.ts';
import { startProgress } from '../../src/builder/build-progress.ts';
import { makeContentRoot } from './helpers.ts';

describe('build progress in the log', () => {
  it('reports the step, pages rendered of the total and the elapsed seconds while the build runs', async () => {
    const root = makeContentRoot({
      'docs.json': '{"name": "Progress"}',
      'content/index.md': '---\ntitle: Home\n---\n\nHello.\n',
      'content/guides/one.md': '---\ntitle: One\n---\n\nFirst.\n',
      'content/guides/two.mdx': '---\ntitle: Two\n---\n\n<Note>Second.</Note>\n',
    });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-progress-out-'));
    const result = await buildSite({ contentRoot: root, outDir: out, progressIntervalMs: 50 });
    expect(result.ok, result.log.join('\n')).toBe(true);
    const progress = result.log.filter((l) => l.startsWith('progress: '));
    for (const line of progress) expect(line).toMatch(/^progress: [a-z ]+(?:: [a-z ]+)?(?:, \d+\/\d+ pages)?, \d+ s$/);
    // Astro's own steps show inside its phase, and search indexing comes after every page was rendered.
    expect(progress.some((l) => l.startsWith('progress: astro'))).toBe(true);
    expect(progress.some((l) => /^progress: pagefind, 3\/3 pages, \d+ s$/.test(l))).toBe(true);
    const elapsed = progress.map((l) => Number(/(\d+) s$/.exec(l)![1]));
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
  });

  it('counts the pages generated from OpenAPI files in the total once Folio names them, so two of five never reads as done', async () => {
    const lines: string[] = [];
    const progress = startProgress((line) => lines.push(line), 10);
    progress.phase('astro');
    progress.total(2);
    // The lines a build prints: Folio's count of generated pages, then Astro's rendered pages.
    progress.line('[folio] openapi: api/openapi.json: 3 operation page(s)');
    progress.line('  ├─ /guides/one/index.html (+3ms)');
    progress.line('  ├─ /guides/two/index.html (+2ms)');
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(1));
    progress.stop();
    expect(lines.at(-1)).toMatch(/^progress: astro, 2\/5 pages, \d+ s$/);
  });

  it('keeps a count printed by a page\'s own code within what a site can hold', async () => {
    const lines: string[] = [];
    const progress = startProgress((line) => lines.push(line), 10);
    progress.phase('astro');
    progress.total(2);
    // A code project's page can print anything into the log, Folio's own line too.
    progress.line(`[folio] openapi: fake.json: ${'9'.repeat(400)} operation page(s)`);
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(1));
    progress.stop();
    const [, done, total] = /, (\d+)\/(\d+) pages/.exec(lines.at(-1)!)!;
    expect(Number(done)).toBe(0);
    expect(Number(total)).toBe(200_000);
  });
});

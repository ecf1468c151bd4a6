// Fast builds one after another over the carried Astro cache (src/builder/build-cache.ts), for real:
// each build a fresh sandboxed process with a uid of its own (astro-step.ts, sandboxUid), so the
// cache a build is given holds files another uid wrote, which it reads and replaces but never
// writes into (docs/decisions.md, "The carried cache off the push's path").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSiteResult } from '../../src/builder/build.ts';
import { makeContentRoot } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const page = (title: string, text: string) => `---\ntitle: ${title}\n---\n\n${text}\n`;

describe('fast builds of one site over the cache its previous build left, each in a sandbox of its own uid', () => {
  it('read only the changed page each time and show its newest text; a build whose check failed leaves the cache to the next one', async () => {
    const root = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'Carried' }),
      'content/index.mdx': page('Home', 'First text.'),
      'content/other.mdx': page('Other', 'Other text.'),
    });
    dirs.push(root);
    const site = `site-${randomUUID()}:`;
    const outs: string[] = [];
    const build = async (id: string, fast?: { from: string; pageFiles: string[] }): Promise<BuildSiteResult & { out: string }> => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
      dirs.push(out);
      // A fast build's search step reads the merged site from its sandbox, as the service's build folders allow.
      fs.chmodSync(out, 0o755);
      const result = await buildSite({
        contentRoot: root,
        outDir: out,
        timeoutMs: 180_000,
        reuse: fast && { previousOutDir: outs.at(-1)!, pageFiles: fast.pageFiles },
        carryCache: { site, from: fast?.from, keepAs: id },
      });
      if (result.ok) outs.push(out);
      return { ...result, out };
    };
    const readAgain = (result: BuildSiteResult) => result.log.find((line) => line.includes('[folio] content sync:'));

    expect((await build('b1')).ok).toBe(true);

    fs.writeFileSync(path.join(root, 'content/index.mdx'), page('Home', 'Second text.'));
    const second = await build('b2', { from: 'b1', pageFiles: ['content/index.mdx'] });
    expect(second.ok, second.log.join('\n')).toBe(true);
    expect(second.log).toContain("content cache: the previous build's, so only changed pages are read");
    expect(readAgain(second)).toContain('1 of 2 pages read again');
    expect(fs.readFileSync(path.join(second.out, 'index.html'), 'utf8')).toContain('Second text.');

    // A push the check refuses: its build never starts, and the cache stays the site's.
    fs.writeFileSync(path.join(root, 'content/index.mdx'), page('Home', 'import fs from "node:fs"\n\nBroken text.'));
    const refused = await build('b-refused', { from: 'b2', pageFiles: ['content/index.mdx'] });
    expect(refused.error?.code).toBe('content_invalid');

    // The same page changed again: its rendered file and its source in the cache are the previous build's uid's.
    fs.writeFileSync(path.join(root, 'content/index.mdx'), page('Home', 'Third text.'));
    const third = await build('b3', { from: 'b2', pageFiles: ['content/index.mdx'] });
    expect(third.ok, third.log.join('\n')).toBe(true);
    expect(third.log).toContain("content cache: the previous build's, so only changed pages are read");
    expect(readAgain(third)).toContain('1 of 2 pages read again');
    const home = fs.readFileSync(path.join(third.out, 'index.html'), 'utf8');
    expect(home).toContain('Third text.');
    expect(home).not.toContain('Second text.');
    // The page's Markdown is made from its source kept in the cache: the newest one.
    const llms = fs.readFileSync(path.join(third.out, 'llms-full.txt'), 'utf8');
    expect(llms).toContain('Third text.');
    expect(llms).toContain('Other text.');
    expect(llms).not.toContain('Second text.');
  }, 300_000);
});

// The search index in shards (docs/decisions.md, "Search index in shards"): with two pages a shard
// (FOLIO_SEARCH_SHARD_PAGES), a five-page site's index is three Pagefind indexes the search
// dialog merges in Chromium; a redeploy that changes one page's text indexes again only the shard
// holding it, keeps the other shards' files (the previous build's, linked), and its index equals a
// full build's of the same commit (the shard's pages before a changed one added while Astro ran); it starts from the previous build's reuse copy (one rename) and
// its publish compresses only the files it wrote. Real deployments over file://, a real browser.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { TestRepo } from '../helpers/git-repos.ts';
import { uniqueSlug, type Json } from '../helpers/server.ts';

let fixture: DeployingServer;
let repo: TestRepo;
let browser: Browser;
let projectId: string;
let slug: string;
const runs: Record<'first' | 'fast' | 'second' | 'full', Json> = {} as never;
const logs: Record<string, string> = {};

const page = (title: string, text: string) => `---\ntitle: ${title}\n---\n\n${text}\n`;
const buildOf = (deploymentId: string) => path.join(fixture.server.dataDir, 'projects', projectId, 'builds', deploymentId);

async function trigger(body: unknown = {}): Promise<Json> {
  const res = await fixture.api('POST', `/v1/projects/${projectId}/deployments`, { body });
  expect(res.status).toBe(202);
  const done = await waitForDeployment(fixture.api, projectId, res.body.id);
  expect(done.status).toBe('succeeded');
  logs[done.id] = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${done.id}/log`)).text;
  return done;
}

/** Every file of a build's search index, by path, with a hash of its bytes and its inode. */
async function indexOf(deploymentId: string): Promise<Map<string, { hash: string; ino: number }>> {
  const dir = path.join(buildOf(deploymentId), 'pagefind');
  const files = new Map<string, { hash: string; ino: number }>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, abs), { hash: createHash('sha256').update(await readFile(abs)).digest('hex'), ino: (await stat(abs)).ino });
  }
  return files;
}

/** What the site's search dialog lists for a term, as a reader sees it. */
async function searchFor(term: string): Promise<string[]> {
  const tab = await browser.newPage();
  try {
    // Chromium resolves *.localhost to this machine, so the site's own address works.
    await tab.goto(`${fixture.server.url.replace('://127.0.0.1', `://${slug}.localhost`)}/`);
    await tab.click('.search-button');
    await tab.fill('.search-input', term);
    await tab.locator('.search-status').filter({ hasText: /found|No results/ }).waitFor();
    return await tab.locator('.search-results a.search-page').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  } finally {
    await tab.close();
  }
}

beforeAll(async () => {
  fixture = await startDeployingServer({ FOLIO_SEARCH_SHARD_PAGES: '2' });
  browser = await launchChromium();
  repo = fixture.host.repo('acme', 'shards');
  // Sorted by path: alpha, bravo | charlie, delta | index: three shards.
  repo.commit({
    'docs.json': JSON.stringify({ name: 'Shard Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'alpha', 'bravo', 'charlie', 'delta'] }] } }),
    'content/index.mdx': page('Home', 'Welcome, the word here is harborlight.'),
    'content/alpha.mdx': page('Alpha', 'The first page speaks of quillwhistle.'),
    'content/bravo.mdx': page('Bravo', 'The second page speaks of marblefern.'),
    'content/charlie.mdx': page('Charlie', 'The third page speaks of copperbough.'),
    'content/delta.mdx': page('Delta', 'The fourth page speaks of lanternmoss.'),
  });
  slug = uniqueSlug('shards');
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Shards', slug, source_repo: repo.slug } });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  runs.first = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
  expect(runs.first.status).toBe('succeeded');
  logs[runs.first.id] = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${runs.first.id}/log`)).text;

  // Delta, in the second shard, gets a new word in place of its old one.
  repo.commit({ 'content/delta.mdx': page('Delta', 'The fourth page now speaks of thistledrum.') });
  runs.fast = await trigger();
}, 400_000);
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

describe('a site whose search index is in shards', () => {
  it('is indexed in shards of the configured size, and the search dialog finds pages of every shard', async () => {
    expect(logs[runs.first.id]).toContain('search index: 5 pages in 3 shards of up to 2');
    expect(logs[runs.first.id]).toMatch(/search index: time spent: process start [\d.]+ s, plan [\d.]+ s, 5 pages \([\d.]+ MiB\) read in [\d.]+ s and added in [\d.]+ s, index written in [\d.]+ s \(summed over 3 shards, 2 at a time\)/);
    expect(await searchFor('quillwhistle')).toEqual(['/alpha/']);
    expect(await searchFor('copperbough')).toEqual(['/charlie/']);
    expect(await searchFor('harborlight')).toEqual(['/']);
  });

  it('asks for every shard\'s index at once on the first search, not one shard after the other', async () => {
    // Each shard's entry is held until the other shard's entry is asked for too: merged one after
    // the other, the second is never asked for and the search never ends.
    const tab = await browser.newPage();
    try {
      const held: Array<() => void> = [];
      await tab.route(/\/pagefind\/[1-9]\d*\/pagefind-entry\.json(\?|$)/, async (route) => {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          if (held.length === 2) for (const release of held) release();
        });
        await route.continue();
      });
      await tab.goto(`${fixture.server.url.replace('://127.0.0.1', `://${slug}.localhost`)}/`);
      await tab.click('.search-button');
      await tab.fill('.search-input', 'copperbough');
      await tab.locator('.search-status').filter({ hasText: /found|No results/ }).waitFor({ timeout: 20_000 });
      expect(held).toHaveLength(2);
      expect(await tab.locator('.search-results a.search-page').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))).toEqual(['/charlie/']);
    } finally {
      await tab.close();
    }
  });

  it('on a one-page change indexes again only the shard holding the page, and search finds the new text', async () => {
    expect(logs[runs.fast.id]).toContain('build: fast (1 page changed)');
    expect(logs[runs.fast.id]).toContain('search index: 1 of 3 shards indexed again (shard 2); 2 kept from the previous build');
    // Where the shard's time went, for the one shard written: the process's start, its two pages,
    // the one before the changed page (charlie) added while Astro ran.
    expect(logs[runs.fast.id]).toMatch(/search index: time spent: process start \d+\.\d\d s, plan \d+\.\d\d s, 2 pages \([\d.]+ MiB\) read in \d+\.\d\d s and added in \d+\.\d\d s \(1 of them in \d+\.\d\d s while Astro ran, then waited \d+\.\d\d s for the changes\), index written in \d+\.\d\d s\n/);
    // The kept shards are the previous build's files (the same inodes); the changed one is new.
    const before = await indexOf(runs.first.id);
    const after = await indexOf(runs.fast.id);
    for (const [file, { ino }] of after) {
      if (file.startsWith('1/')) expect(before.get(file)?.ino, file).not.toBe(ino);
      else if (file.startsWith('2/') || file.endsWith('.pf_fragment') || file === 'pagefind-entry.json') expect(before.get(file)?.ino, file).toBe(ino);
    }
    // Pages of the shards not indexed again are found, the change too, and the old text no more.
    expect(await searchFor('thistledrum')).toEqual(['/delta/']);
    expect(await searchFor('lanternmoss')).toEqual([]);
    expect(await searchFor('marblefern')).toEqual(['/bravo/']);
    expect(await searchFor('harborlight')).toEqual(['/']);
  });

  it('takes the previous build\'s reuse copy whole instead of linking its files while the reader waits', async () => {
    // The copy is made once the first build is live, and taken by the fast redeploy by one rename.
    expect(logs[runs.first.id]).toMatch(/reuse: this build's copy for the next fast redeploy made in [\d.]+ s \(after it went live\)/);
    expect(logs[runs.fast.id]).toContain('previous build: its reuse copy taken whole (no file linked now)');
    const builds = path.dirname(buildOf(runs.first.id));
    const entries = await readdir(builds);
    expect(entries).not.toContain(`${runs.first.id}.reuse`);
    expect(entries).toContain(`${runs.fast.id}.reuse`);
    // The previous build is whole still (it may be live again by a rollback).
    expect((await indexOf(runs.first.id)).size).toBeGreaterThan(0);
    expect(await readFile(path.join(buildOf(runs.first.id), 'delta/index.html'), 'utf8')).toContain('lanternmoss');
  });

  it('compresses at publish only the files the fast build wrote, not every file of the site', () => {
    const compressed = (log: string) => Number(/publish: (\d+) text file\(s\) compressed/.exec(log)?.[1]);
    const all = compressed(logs[runs.first.id]!);
    const fast = compressed(logs[runs.fast.id]!);
    // The changed page's files and the search index's shard files, against the whole site's.
    expect(fast).toBeGreaterThan(0);
    expect(fast).toBeLessThan(all / 2);
  });

  it('on a change of two pages in two shards indexes again both shards, and search finds both changes', async () => {
    // The home page is alone in shard 3; bravo comes after alpha in shard 1.
    repo.commit({
      'content/index.mdx': page('Home', 'Welcome, the word here is now emberglade.'),
      'content/bravo.mdx': page('Bravo', 'The second page now speaks of saltmeadow.'),
    });
    runs.second = await trigger();
    const log = logs[runs.second.id]!;
    expect(log).toContain('build: fast (2 pages changed)');
    expect(log).toContain('search index: 2 of 3 shards indexed again (shard 1, shard 3); 1 kept from the previous build');
    // Alpha, before bravo in its shard, was added while Astro ran; shard 3 has none before the home page.
    expect(log).toMatch(/search index: time spent: .*3 pages .* \(1 of them in [\d.]+ s while Astro ran, then waited [\d.]+ s for the changes\)/);
    expect(await searchFor('emberglade')).toEqual(['/']);
    expect(await searchFor('saltmeadow')).toEqual(['/bravo/']);
    expect(await searchFor('marblefern')).toEqual([]);
    expect(await searchFor('thistledrum')).toEqual(['/delta/']);
    expect(await searchFor('quillwhistle')).toEqual(['/alpha/']);
  }, 200_000);

  it('writes the same index, byte for byte, as a full build of the same commit', async () => {
    runs.full = await trigger({ full_build: true });
    expect(logs[runs.full.id]).toContain('search index: 5 pages in 3 shards of up to 2');
    // The second fast build's: its shard 2 is the first fast build's, linked.
    const fast = await indexOf(runs.second.id);
    const full = await indexOf(runs.full.id);
    expect([...fast.keys()].sort()).toEqual([...full.keys()].sort());
    expect([...full].filter(([file, { hash }]) => fast.get(file)?.hash !== hash).map(([file]) => file)).toEqual([]);
  }, 200_000);
});

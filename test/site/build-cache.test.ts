// The Astro cache a build leaves is a tenant build's output (src/builder/build-cache.ts): keeping it
// never follows a link the build put in its root, and only a folder is ever carried on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adoptCarriedStore, CARRIED_FROM_FILE, keepCache, takeCache } from '../../src/builder/build-cache.ts';
import { removeBuildDir } from '../../src/builder/build-roots.ts';

let dir: string;
let caches: string;
const uid = process.getuid?.() ?? 0;

/** takeCache, then the cache placed in `root` as buildSite does once the check passed: whether it is there. */
const carryInto = async (site: string, name: string, root: string, toUid: number) => (await (await takeCache(caches, site, name, toUid))?.placeIn(root)) ?? false;

/** A build root as a finished build leaves it, with `.cache/astro` holding a content store (one naming the root, as a page's text may). */
function buildRoot(name: string): string {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, '.cache/astro/folio-rendered/pages'), { recursive: true });
  fs.writeFileSync(path.join(root, '.cache/astro/data-store.json'), JSON.stringify({ root: `file://${root}/`, out: `${root}/out` }));
  fs.writeFileSync(path.join(root, '.cache/astro/folio-rendered/pages/a.json'), '{"html":"<p>a</p>"}');
  return root;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-build-cache-'));
  caches = path.join(dir, 'caches');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a carried Astro cache', () => {
  it('goes from one build root to the next build of the same site, made that root\'s', async () => {
    const first = buildRoot('first');
    await keepCache(caches, 'project-1:', 'deployment-1', first, removeBuildDir);
    expect(fs.existsSync(path.join(first, '.cache'))).toBe(false);
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    expect(await carryInto('project-2:', 'deployment-1', next, uid)).toBe(false);
    expect(await carryInto('project-1:', 'deployment-1', next, uid)).toBe(true);
    expect(fs.readFileSync(path.join(next, '.cache/astro/folio-rendered/pages/a.json'), 'utf8')).toBe('{"html":"<p>a</p>"}');
    expect(adoptCarriedStore(next)).toBe(true);
    // Used as it is: nothing in Astro's store depends on the build root's path, and a text naming it stays the author's.
    expect(JSON.parse(fs.readFileSync(path.join(next, '.cache/astro/data-store.json'), 'utf8'))).toEqual({ root: `file://${first}/`, out: `${first}/out` });
    // Taken once: a second build of the same name starts empty.
    const third = path.join(dir, 'third');
    fs.mkdirSync(third);
    expect(await carryInto('project-1:', 'deployment-1', third, uid)).toBe(false);
    expect(adoptCarriedStore(third)).toBe(false);
  });

  it('is not kept, and what a link in the build root points to is left alone, when the build made its cache a link', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(path.join(elsewhere, 'astro'), { recursive: true });
    fs.writeFileSync(path.join(elsewhere, 'astro/secret.txt'), 'not the build\'s');
    const linkedTop = path.join(dir, 'linked-top');
    fs.mkdirSync(linkedTop);
    fs.symlinkSync(elsewhere, path.join(linkedTop, '.cache'));
    await keepCache(caches, 'site:', 'd1', linkedTop, removeBuildDir);

    const linkedCache = path.join(dir, 'linked-cache');
    fs.mkdirSync(path.join(linkedCache, '.cache'), { recursive: true });
    fs.symlinkSync(path.join(elsewhere, 'astro'), path.join(linkedCache, '.cache/astro'));
    await keepCache(caches, 'site:', 'd2', linkedCache, removeBuildDir);

    expect(fs.readFileSync(path.join(elsewhere, 'astro/secret.txt'), 'utf8')).toBe('not the build\'s');
    for (const name of ['d1', 'd2']) {
      const next = path.join(dir, `next-${name}`);
      fs.mkdirSync(next);
      expect(await carryInto('site:', name, next, uid)).toBe(false);
    }
  });
});

describe('a carried cache given to the next build\'s sandbox uid (src/builder/build-cache.ts, takeCache)', () => {
  /** Another uid than the server's: what a sandbox of its own gets (sandbox.ts, sandboxUid). */
  const sandboxUid = 234_567;
  const asRoot = uid === 0;

  /** A victim folder with one file, outside every build root and cache. */
  function victim(): { dir: string; file: string } {
    const victimDir = path.join(dir, 'victim');
    fs.mkdirSync(victimDir);
    const file = path.join(victimDir, 'server-file.txt');
    fs.writeFileSync(file, 'the server\'s\n');
    return { dir: victimDir, file };
  }

  /** Keeps a build's cache after `plant` put something in it (as that build could), then gives it to the next build: whether it was carried. */
  async function carriedAfter(plant: (cache: string) => void): Promise<{ carried: boolean; next: string }> {
    const first = buildRoot('first');
    plant(path.join(first, '.cache/astro'));
    await keepCache(caches, 'site:', 'd1', first, removeBuildDir);
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    return { carried: await carryInto('site:', 'd1', next, sandboxUid), next };
  }

  it('never gives what a link the previous build put in its cache points to, and the cache is not carried', async () => {
    const target = victim();
    const { carried, next } = await carriedAfter((cache) => fs.symlinkSync(target.dir, path.join(cache, 'folio-rendered/elsewhere')));
    expect(fs.lstatSync(target.file).uid).toBe(uid);
    expect(fs.lstatSync(target.dir).uid).toBe(uid);
    expect(carried).toBe(false);
    expect(fs.existsSync(path.join(next, '.cache'))).toBe(false);
  });

  it('never gives a file the previous build linked into its cache under a second name (a hard link)', async () => {
    const target = victim();
    const { carried } = await carriedAfter((cache) => fs.linkSync(target.file, path.join(cache, 'folio-rendered/pages/b.json')));
    expect(fs.lstatSync(target.file).uid).toBe(uid);
    expect(carried).toBe(false);
  });

  it('has its folders the new uid\'s (the server running as root), its files readable by all left as they are, and any other file given too', async () => {
    const first = buildRoot('first');
    // As a build under a strict umask would leave it: readable by its own uid only.
    const privateFile = path.join(first, '.cache/astro/folio-rendered/pages/private.json');
    fs.writeFileSync(privateFile, '{}', { mode: 0o600 });
    fs.chmodSync(privateFile, 0o600);
    await keepCache(caches, 'site:', 'd1', first, removeBuildDir);
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    expect(await carryInto('site:', 'd1', next, sandboxUid)).toBe(true);
    for (const rel of ['.cache', '.cache/astro', '.cache/astro/folio-rendered', '.cache/astro/folio-rendered/pages', '.cache/astro/folio-rendered/pages/private.json']) expect(fs.lstatSync(path.join(next, rel)).uid).toBe(asRoot ? sandboxUid : uid);
    expect(fs.lstatSync(path.join(next, '.cache/astro/folio-rendered/pages/a.json')).uid).toBe(uid);
  });

  it('keeps no set-id or others\' write bit a build gave a file of its cache, and is carried', async () => {
    const first = buildRoot('first');
    const odd = path.join(first, '.cache/astro/folio-rendered/pages/odd.json');
    fs.writeFileSync(odd, '{}');
    fs.chmodSync(odd, 0o6777);
    await keepCache(caches, 'site:', 'd1', first, removeBuildDir);
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    expect(await carryInto('site:', 'd1', next, sandboxUid)).toBe(true);
    expect(fs.lstatSync(path.join(next, '.cache/astro/folio-rendered/pages/odd.json')).mode & 0o7777).toBe(0o755);
  });

  it('goes back to its slot, for the site\'s next build, when the build that took it stops before placing it', async () => {
    await keepCache(caches, 'site:', 'd1', buildRoot('first'), removeBuildDir);
    const taken = await takeCache(caches, 'site:', 'd1', sandboxUid);
    expect(taken).toBeDefined();
    await taken!.putBack();
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    // Once settled, the other way does nothing.
    expect(await taken!.placeIn(next)).toBe(false);
    expect(fs.existsSync(path.join(next, '.cache'))).toBe(false);
    expect(await carryInto('site:', 'd1', next, sandboxUid)).toBe(true);
    expect(fs.readFileSync(path.join(next, '.cache/astro/folio-rendered/pages/a.json'), 'utf8')).toBe('{"html":"<p>a</p>"}');
    expect(adoptCarriedStore(next)).toBe(true);
    // The store as the build that made it wrote it (used as it is).
    expect(JSON.parse(fs.readFileSync(path.join(next, '.cache/astro/data-store.json'), 'utf8'))).toEqual({ root: `file://${path.join(dir, 'first')}/`, out: `${path.join(dir, 'first')}/out` });
  });

  it('writes through no link a process still running in the sandbox put in the build root, and the build goes on without the cache', async () => {
    const target = victim();
    await keepCache(caches, 'site:', 'd1', buildRoot('first'), removeBuildDir);
    // A warm worker's process sees every build root it builds in, and may have put this there.
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    fs.symlinkSync(target.file, path.join(next, CARRIED_FROM_FILE));
    const carried = await carryInto('site:', 'd1', next, sandboxUid);
    expect(fs.readFileSync(target.file, 'utf8')).toBe('the server\'s\n');
    expect(carried).toBe(false);
    expect(adoptCarriedStore(next)).toBe(false);
  });

  it('carries no cache through a link at the cache\'s own name in the build root', async () => {
    const target = victim();
    await keepCache(caches, 'site:', 'd1', buildRoot('first'), removeBuildDir);
    const next = path.join(dir, 'next');
    fs.mkdirSync(next);
    fs.symlinkSync(target.dir, path.join(next, '.cache'));
    expect(await carryInto('site:', 'd1', next, sandboxUid)).toBe(false);
    expect(fs.readdirSync(target.dir)).toEqual(['server-file.txt']);
    expect(fs.lstatSync(path.join(next, '.cache')).isSymbolicLink()).toBe(true);
  });
});

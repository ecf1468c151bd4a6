// The Astro cache a build leaves is a tenant build's output (src/builder/build-cache.ts): keeping it
// never follows a link the build put in its root, and only a folder is ever carried on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adoptCarriedStore, keepCache, takeCache } from '../../src/builder/build-cache.ts';
import { removeBuildDir } from '../../src/builder/build-roots.ts';

let dir: string;
let caches: string;
const uid = process.getuid?.() ?? 0;

/** A build root as a finished build leaves it, with `.cache/astro` holding a content store naming the root. */
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
    expect(await takeCache(caches, 'project-2:', 'deployment-1', next, uid)).toBe(false);
    expect(await takeCache(caches, 'project-1:', 'deployment-1', next, uid)).toBe(true);
    expect(fs.readFileSync(path.join(next, '.cache/astro/folio-rendered/pages/a.json'), 'utf8')).toBe('{"html":"<p>a</p>"}');
    expect(adoptCarriedStore(next)).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(next, '.cache/astro/data-store.json'), 'utf8'))).toEqual({ root: `file://${next}/`, out: `${next}/out` });
    // Taken once: a second build of the same name starts empty.
    const third = path.join(dir, 'third');
    fs.mkdirSync(third);
    expect(await takeCache(caches, 'project-1:', 'deployment-1', third, uid)).toBe(false);
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
      expect(await takeCache(caches, 'site:', name, next, uid)).toBe(false);
    }
  });
});

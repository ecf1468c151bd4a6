// The warm build worker keeps projects apart: two projects built in sequence by one worker process,
// the second site holds nothing of the first (pages, names, snippets, public files, site URL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSiteResult } from '../../src/builder/build.ts';
import { WarmWorker } from '../../src/builder/warm-worker.ts';
import { listFiles, makeContentRoot } from '../site/helpers.ts';

const worker = new WarmWorker();
const dirs: string[] = [];
let alpha: { out: string; result: BuildSiteResult; pid?: number };
let beta: { out: string; result: BuildSiteResult; pid?: number };

async function build(files: Record<string, string>, siteUrl?: string) {
  const root = makeContentRoot(files);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  dirs.push(root, out);
  const result = await buildSite({ contentRoot: root, outDir: out, siteUrl, timeoutMs: 180_000, astro: worker });
  return { out, result, pid: worker.pid };
}

beforeAll(async () => {
  alpha = await build(
    {
      'docs.json': JSON.stringify({ name: 'ALPHA-NAME', colors: { primary: '#123456' } }),
      'content/index.mdx': '# Alpha home\n\nALPHA-BODY <Snippet file="alpha.mdx" />\n',
      'content/alpha-only.mdx': '# ALPHA-PAGE\n\nOnly alpha.\n',
      '_snippets/alpha.mdx': 'ALPHA-SNIPPET\n',
      'public/alpha.txt': 'ALPHA-PUBLIC\n',
    },
    'https://alpha.example.com',
  );
  beta = await build({
    'content/index.mdx': '# Beta home\n\nBeta body.\n',
    'content/beta-only.mdx': '# Beta page\n\nOnly beta.\n',
  });
});
afterAll(async () => {
  await worker.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('warm build worker', () => {
  it('built both sites in one process', () => {
    expect(alpha.result.ok, alpha.result.log.join('\n')).toBe(true);
    expect(beta.result.ok, beta.result.log.join('\n')).toBe(true);
    expect(alpha.pid).toBeGreaterThan(0);
    expect(beta.pid).toBe(alpha.pid);
    expect(fs.readFileSync(path.join(alpha.out, 'index.html'), 'utf8')).toContain('ALPHA-SNIPPET');
  });

  it('the second site contains nothing of the first', () => {
    const files = listFiles(beta.out);
    expect(files).toContain('beta-only/index.html');
    expect(files.filter((f) => /alpha/i.test(f))).toEqual([]);
    for (const file of files) {
      const text = fs.readFileSync(path.join(beta.out, file), 'latin1');
      expect(text, file).not.toMatch(/ALPHA|alpha\.example\.com|#123456/);
    }
  });

  it('per-build settings do not carry over: the second build has no site URL, so no Sitemap line', () => {
    expect(fs.readFileSync(path.join(alpha.out, 'robots.txt'), 'utf8')).toContain('Sitemap: https://alpha.example.com/sitemap.xml');
    expect(fs.readFileSync(path.join(beta.out, 'robots.txt'), 'utf8')).not.toContain('Sitemap');
  });

  it('a build stopped mid-way kills the worker; the next build gets a fresh one and succeeds', async () => {
    const root = makeContentRoot({ 'content/index.mdx': '# Stopped\n\nNever finished.\n' });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
    dirs.push(root, out);
    const controller = new AbortController();
    const before = worker.pid;
    const stopped = await buildSite({
      contentRoot: root,
      outDir: out,
      signal: controller.signal,
      astro: worker,
      onLog: (line) => {
        if (line.includes('[content]') || line.includes('[build]')) controller.abort(); // Astro is running
      },
    });
    expect(stopped.error?.code).toBe('canceled');
    expect(listFiles(out)).toEqual([]);
    const next = await build({ 'content/index.mdx': '# After\n\nBuilt by a fresh worker.\n' });
    expect(next.result.ok).toBe(true);
    expect(next.pid).not.toBe(before);
    expect(fs.readFileSync(path.join(next.out, 'index.html'), 'utf8')).toContain('Built by a fresh worker.');
  });
});

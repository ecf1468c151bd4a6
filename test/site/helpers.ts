// Shared helpers of the site tests: fixture content roots in temp dirs, real builds, reading output.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildSite, type BuildSiteResult } from '../../src/site/build.ts';

/** Writes a content root from a map of relative path → text; returns its absolute path. */
export function makeContentRoot(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-site-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

export interface BuiltSite {
  root: string;
  out: string;
  result: BuildSiteResult;
  read(rel: string): string;
  exists(rel: string): boolean;
}

/** Builds a fixture for real (content check, Astro in a child process, Pagefind). */
export async function buildFixture(files: Record<string, string>, options: { siteUrl?: string } = {}): Promise<BuiltSite> {
  const root = makeContentRoot(files);
  return buildRoot(root, options);
}

export async function buildRoot(root: string, options: { siteUrl?: string } = {}): Promise<BuiltSite> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  const result = await buildSite({ contentRoot: root, outDir: out, siteUrl: options.siteUrl, timeoutMs: 180_000 });
  return {
    root,
    out,
    result,
    read: (rel) => fs.readFileSync(path.join(out, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(out, rel)),
  };
}

/** Every file under `dir` (relative paths). */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

/** The `<article>` of a built page, where the page's own content is. */
export function article(html: string): string {
  const start = html.indexOf('<article');
  return html.slice(start, html.indexOf('</article>', start));
}

/** The sidebar navigation of a built page. */
export function sidebarOf(html: string): string {
  const start = html.indexOf('<nav class="sidebar"');
  return html.slice(start, html.indexOf('</nav>', start));
}

/** Visible text of some HTML (tags removed, entities kept). */
export function text(html: string): string {
  return html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
}

/** A static file server for a built site (directory index, 404.html), for the browser test. */
export async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = path.join(dir, path.normalize(urlPath));
    if (!file.startsWith(dir)) file = path.join(dir, '404.html');
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    const found = fs.existsSync(file);
    res.writeHead(found ? 200 : 404, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(found ? file : path.join(dir, '404.html')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

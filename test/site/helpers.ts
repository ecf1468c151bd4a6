// Shared helpers of the site tests: fixture content roots in temp dirs, real builds, reading output.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { createSiteHandler } from '../../src/hosting/serve-site.ts';
import { publishBuild } from '../../src/service/builds/disk.ts';
import { precompressBuild } from '../../src/service/deployments/precompress.ts';
import { buildDir } from '../../src/service/project-files.ts';
import type { ProjectRecord } from '../../src/service/store/records.ts';
import { buildSite, type BuildSiteResult } from '../../src/builder/build.ts';
import { repoRoot, type PageHistory } from '../../src/site/settings.ts';

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
export async function buildFixture(files: Record<string, string>, options: { siteUrl?: string; pageHistory?: PageHistory } = {}): Promise<BuiltSite> {
  const root = makeContentRoot(files);
  return buildRoot(root, options);
}

export async function buildRoot(root: string, options: { siteUrl?: string; pageHistory?: PageHistory } = {}): Promise<BuiltSite> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  const result = await buildSite({ contentRoot: root, outDir: out, siteUrl: options.siteUrl, timeoutMs: 180_000, pageHistory: options.pageHistory });
  return {
    root,
    out,
    result,
    read: (rel) => fs.readFileSync(path.join(out, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(out, rel)),
  };
}

/** `npm run check:site -- <root> [args…]` as a user runs it: its exit code and output lines. */
export async function checkSite(root: string, args: string[] = []): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'scripts/check-site.ts'), root, ...args], { cwd: repoRoot });
    return { code: 0, lines: stdout.trim().split('\n') };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, lines: e.stdout.trim().split('\n') };
  }
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

/** A port nothing listens on now (for a server whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Serves a built site the way Folio serves a live one, for the browser test: the output becomes a
 * project's live build in a temp data dir, answered by the hosting's own site handler (headers,
 * Content-Security-Policy, 404 page). `dir` is where the served build now lives.
 */
export async function serveWithFolio(out: string, options: { allowCode?: boolean; port?: number } = {}): Promise<{ url: string; dir: string; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-serve-'));
  const project = { id: randomUUID(), allow_code: options.allowCode } as ProjectRecord;
  const deployment = randomUUID();
  const dir = buildDir(dataDir, project.id, deployment);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.cpSync(out, dir, { recursive: true });
  await precompressBuild(dir); // as a deployment's publish step does
  await publishBuild(dataDir, project.id, deployment);
  const sites = createSiteHandler(dataDir);
  const server = http.createServer((req, res) => void sites.serve(project, req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// Compressed sites (docs/decisions.md#compressed-sites): a deployment's publish step
// writes brotli and gzip copies of the build's text files; the site handler answers with the one
// the client's Accept-Encoding takes, each with its own ETag and length, `Vary: Accept-Encoding`
// on all of them. A real server, a real repository over file://, a real build, raw HTTP.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { uniqueSlug, type TestServer } from '../helpers/server.ts';
import { precompressBuild } from '../../src/service/deployments/precompress.ts';
import { linkTree } from '../../src/lib/link-tree.ts';

let fixture: DeployingServer;
let server: TestServer;
let slug: string;
let liveDir: string;

const NOTES = `Release notes\n${Array.from({ length: 200 }, (_, i) => `- change ${i}: the widget now folds its corners`).join('\n')}\n`;

// Over MEMORY_FILE_BYTES (site-files.ts): streamed from disk, not kept in memory.
const BIG = Array.from({ length: 30_000 }, (_, i) => `line ${String(i).padStart(5, '0')}`).join('\n');

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

/** One request, its body's bytes as sent (never decoded). */
function raw(urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: urlPath, method, headers: { host: `${slug}.localhost`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: RawResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.bytes).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(res.bytes).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.bytes.toString('utf8');
}

beforeAll(async () => {
  fixture = await startDeployingServer();
  server = fixture.server;
  const repo = fixture.host.repo('acme', 'compressed');
  repo.commit({
    'docs.json': JSON.stringify({ name: 'Compressed Site' }),
    'content/index.mdx': `# Home\n\n${'Words that repeat well in a compressed answer. '.repeat(40)}\n`,
    'public/notes.txt': NOTES,
    'public/tiny.txt': 'small\n',
    'public/big.txt': BIG,
    // A build may write anything into its output, copies under Folio's folder too: never served as such.
    'public/_folio/compressed/notes.txt.br': 'planted: not the notes\n',
    'public/_folio/compressed/index.html.gz': 'planted: not the home page\n',
    'public/_folio/compressed/tiny.txt.gz': 'planted: a copy of a file too small to get one\n',
  });
  slug = uniqueSlug('compressed');
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Compressed', slug, source_repo: repo.slug } });
  const done = await waitForDeployment(fixture.api, created.body.id, (await latestDeployment(fixture.api, created.body.id)).id);
  expect(done.status).toBe('succeeded');
  liveDir = path.join(server.dataDir, 'projects', created.body.id, 'builds', done.id);
  const log = await fixture.api('GET', `/v1/projects/${created.body.id}/deployments/${done.id}/log`);
  expect(log.text).toMatch(/publish: \d+ text file\(s\) compressed \(brotli, gzip\)/);
});
afterAll(() => fixture.close());

describe('Accept-Encoding', () => {
  it('sends a page brotli- or gzip-compressed as the client asks, the same page each time, smaller, with its own ETag', async () => {
    const page = await readFile(path.join(liveDir, 'index.html'), 'utf8');
    const plain = await raw('/');
    const br = await raw('/', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await raw('/', { 'accept-encoding': 'gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    for (const res of [plain, br, gz]) {
      expect(res.status).toBe(200);
      expect(decoded(res)).toBe(page);
      // A page's address answers with its Markdown too (Accept): one Vary names both.
      expect(res.headers.vary).toBe('accept, accept-encoding');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
    }
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(gz.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  it('follows q-values: a refused encoding (q=0) is never sent, `*` stands for the others, identity when nothing fits', async () => {
    expect((await raw('/notes.txt', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await raw('/notes.txt', { 'accept-encoding': 'br;q=0.5, gzip;q=0.8' })).headers['content-encoding']).toBe('gzip');
    expect((await raw('/notes.txt', { 'accept-encoding': '*' })).headers['content-encoding']).toBe('br');
    expect((await raw('/notes.txt', { 'accept-encoding': 'gzip;q=0, *' })).headers['content-encoding']).toBe('br');
    expect((await raw('/notes.txt', { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    expect((await raw('/notes.txt', { 'accept-encoding': 'deflate, identity' })).headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip', 'identity']) expect(decoded(await raw('/notes.txt', { 'accept-encoding': encoding }))).toBe(NOTES);
  });

  it('revalidates each encoding by its own ETag; HEAD sends the headers of the same answer and no body', async () => {
    const br = await raw('/', { 'accept-encoding': 'br' });
    const again = await raw('/', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toBe('accept, accept-encoding');
    // The brotli copy's tag does not stand for the gzip one or the plain page.
    expect((await raw('/', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! })).status).toBe(200);
    expect((await raw('/', { 'if-none-match': br.headers.etag! })).status).toBe(200);
    const head = await raw('/', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(br.bytes.length));
    expect(head.headers.etag).toBe(br.headers.etag);
  });

  it('ignores copies the build planted, serves no copy by its own path, and leaves images, fonts and tiny files as they are', async () => {
    expect(decoded(await raw('/notes.txt', { 'accept-encoding': 'br' }))).toBe(NOTES);
    expect(decoded(await raw('/', { 'accept-encoding': 'gzip' }))).toContain('Words that repeat well');
    for (const copy of ['/_folio/compressed/notes.txt.br', '/_folio/compressed/index.html.gz', '/_folio/compressed/', '/_folio/compressed']) {
      expect((await raw(copy)).status, copy).toBe(404);
    }
    const tiny = await raw('/tiny.txt', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.bytes.toString()).toBe('small\n');
    const font = (await readdir(path.join(liveDir, '_astro'))).find((f) => f.endsWith('.woff2'))!;
    expect((await raw(`/_astro/${font}`, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBeUndefined();
    // The CSS and JS assets are compressed too.
    const css = (await readdir(path.join(liveDir, '_astro'))).find((f) => f.endsWith('.css'))!;
    const asset = await raw(`/_astro/${css}`, { 'accept-encoding': 'br' });
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(asset)).toBe(await readFile(path.join(liveDir, '_astro', css), 'utf8'));
  });

  it("tells caches that a page's address varies by Accept and Accept-Encoding, and a file's by Accept-Encoding alone, on every answer", async () => {
    // A cache that heard only Accept-Encoding would hand a page's Markdown to a browser, or its HTML to an agent.
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip', accept: 'text/markdown' }] as Record<string, string>[]) {
      const page = await raw('/', headers);
      expect(page.headers.vary, JSON.stringify(headers)).toBe('accept, accept-encoding');
      expect((await raw('/', { ...headers, 'if-none-match': page.headers.etag! })).headers.vary).toBe('accept, accept-encoding');
    }
    expect((await raw('/no/such/page', { 'accept-encoding': 'br' })).headers.vary).toBe('accept, accept-encoding');
    expect((await raw('/index.html', { 'accept-encoding': 'br' })).headers.vary).toBe('accept-encoding');
    expect((await raw('/notes.txt')).headers.vary).toBe('accept-encoding');
  });

  it('sends the 404 page compressed too, with its status', async () => {
    const missing = await raw('/no/such/page', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBe('br');
    expect(decoded(missing)).toContain('<html');
  });
});

describe('byte ranges (RFC 9110 section 14)', () => {
  it('sends the range of a file sent as it is: 206 with Content-Range, from memory and from disk, the suffix and open forms too', async () => {
    const whole = await raw('/notes.txt');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    for (const [file, text] of [['/notes.txt', NOTES], ['/big.txt', BIG]] as const) {
      const size = Buffer.byteLength(text);
      for (const [range, start, end] of [['bytes=10-19', 10, 19], ['bytes=-7', size - 7, size - 1], [`bytes=${size - 30}-`, size - 30, size - 1], [`bytes=5-${size * 2}`, 5, size - 1]] as const) {
        const part = await raw(file, { range });
        expect(part.status, `${file} ${range}`).toBe(206);
        expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect(part.headers['content-length']).toBe(String(end - start + 1));
        expect(part.bytes.toString('utf8')).toBe(text.slice(start, end + 1));
        expect(part.headers['content-encoding']).toBeUndefined();
      }
    }
    // Far into the file on disk: a stream that starts there, not the whole file.
    const deep = await raw('/big.txt', { range: 'bytes=300000-300009' });
    expect(deep.bytes.toString()).toBe(BIG.slice(300000, 300010));
    // The range belongs to the same representation as the whole file: same ETag, same Vary.
    const part = await raw('/notes.txt', { range: 'bytes=0-4' });
    expect(part.headers.etag).toBe(whole.headers.etag);
    expect(part.headers.vary).toBe('accept-encoding');
    const head = await raw('/notes.txt', { range: 'bytes=0-4' }, 'HEAD');
    expect([head.status, head.headers['content-length'], head.bytes.length]).toEqual([206, '5', 0]);
  });

  it('answers 416 with the size for a range past the end, and the whole file for a list, bad syntax, another unit or another version', async () => {
    const size = Buffer.byteLength(NOTES);
    for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=-0']) {
      const res = await raw('/notes.txt', { range });
      expect(res.status, range).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${size}`);
      expect(res.bytes.length).toBe(0);
    }
    const whole = await raw('/notes.txt');
    for (const [range, ifRange] of [['bytes=0-1,5-6', undefined], ['bytes=9-2', undefined], ['bytes=x-3', undefined], ['items=0-1', undefined], ['bytes=0-1', '"another-version"'], ['bytes=0-1', 'Fri, 27 Nov 2026 20:00:00 GMT']]) {
      const res = await raw('/notes.txt', { range: range!, ...(ifRange ? { 'if-range': ifRange } : {}) });
      expect(res.status, `${range} ${ifRange}`).toBe(200);
      expect(res.bytes.toString()).toBe(NOTES);
    }
    expect((await raw('/notes.txt', { range: 'bytes=0-1', 'if-range': whole.headers.etag! })).status).toBe(206);
  });

  it('sends a compressed answer and the 404 page whole: a range is never a slice of one encoding mixed with another', async () => {
    const br = await raw('/notes.txt', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['accept-ranges']).toBeUndefined();
    expect(decoded(br)).toBe(NOTES);
    const missing = await raw('/no/such/page', { range: 'bytes=0-9' });
    expect(missing.status).toBe(404);
    expect(missing.bytes.toString()).toContain('<html');
  });
});

describe('the publish step', () => {
  it('writes no copy through a link the build left, replaces wrong copies, and keeps right ones', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'folio-precompress-'));
    try {
      const build = path.join(root, 'build');
      const outside = path.join(root, 'outside');
      await mkdir(path.join(build, '_folio'), { recursive: true });
      await mkdir(outside);
      await writeFile(path.join(build, 'notes.txt'), NOTES);
      await writeFile(path.join(build, 'other.txt'), NOTES.toUpperCase());
      await writeFile(path.join(build, 'tiny.txt'), 'small\n');
      await writeFile(path.join(outside, 'tiny.txt.br'), 'not the build\'s to remove');
      await symlink(outside, path.join(build, '_folio', 'compressed'));
      expect(await precompressBuild(build)).toEqual({ files: 2, made: 4 });
      expect(await readdir(outside)).toEqual(['tiny.txt.br']);
      const copies = path.join(build, '_folio', 'compressed');
      expect(zlib.brotliDecompressSync(await readFile(path.join(copies, 'notes.txt.br'))).toString()).toBe(NOTES);
      // A valid copy of other bytes (what a fast redeploy links in for a changed file) is made again.
      await writeFile(path.join(copies, 'notes.txt.gz'), zlib.gzipSync('something else entirely'));
      expect(await precompressBuild(build)).toEqual({ files: 2, made: 1 });
      expect(zlib.gunzipSync(await readFile(path.join(copies, 'notes.txt.gz'))).toString()).toBe(NOTES);
      // A fast redeploy: files and copies linked from the published build are kept unread; a
      // changed file (a new inode) gets new copies, even where the old copy was linked in.
      const next = path.join(root, 'next');
      await linkTree(build, next);
      await rm(path.join(next, 'notes.txt'));
      await writeFile(path.join(next, 'notes.txt'), `${NOTES}one more line\n`);
      expect(await precompressBuild(next, build)).toEqual({ files: 2, made: 2 });
      expect(zlib.brotliDecompressSync(await readFile(path.join(next, '_folio', 'compressed', 'notes.txt.br'))).toString()).toBe(`${NOTES}one more line\n`);
      expect(zlib.brotliDecompressSync(await readFile(path.join(copies, 'notes.txt.br'))).toString()).toBe(NOTES);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

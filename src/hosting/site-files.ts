// Finding the file a request path names inside one live build directory, safely and fast.
//
// A build directory never changes once it is live (a redeploy publishes a new one), so what a path
// resolves to is cached per build directory: after the first request, serving a page costs a map
// lookup. Small files are kept in memory too.
import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_FILE_FLAGS, COMPRESSED_DIR, COMPRESSIONS, compressible, contentTypeOf, type Compression } from '../service/builds/build-files.ts';
import { MAX_CACHED_MISS_PATH, MAX_CACHED_MISSES_PER_SITE } from '../site/tenant-limits.ts';

// Defined with the builds (service/builds/build-files.ts), which publish and object storage use too.
export { BUILD_FILE_FLAGS, COMPRESSED_DIR, COMPRESSIONS, compressible, contentTypeOf, type Compression };

export interface SiteFile {
  /** Absolute path of a regular file inside the build directory (a build on disk). */
  abs: string;
  /** Opens the file's bytes when they are neither in `body` nor at `abs` (a build in object storage). */
  open?: () => Promise<NodeJS.ReadableStream>;
  size: number;
  etag: string;
  /** The file's bytes when small enough to keep in memory. */
  body?: Buffer;
  /** The response headers of a 200/404 (flat name, value list) and of a 304, computed once. */
  headers: string[];
  notModifiedHeaders: string[];
  /** An SVG opened directly may carry scripts: its Content-Security-Policy adds `sandbox`. */
  sandbox: boolean;
  /** The same file compressed at publish time (deployments/precompress.ts), by encoding, when it was worth it. */
  encoded?: Partial<Record<Compression, SiteFile>>;
}

export type PathCheck = { ok: true; rel: string } | { ok: false };

/**
 * The path a request names, relative to the site root ('' for `/`), or not ok when it could
 * escape the site or is malformed: `..` or `.` segments (plain or encoded), encoded `/` or `\`,
 * backslashes, NUL or other control characters, empty segments (`//`), bad percent-encoding.
 * A trailing `/` is kept, so `x/` is told apart from `x`.
 */
export function checkRequestPath(url: string): PathCheck {
  const end = url.search(/[?#]/);
  const raw = end < 0 ? url : url.slice(0, end);
  if (!raw.startsWith('/') || raw.includes('\\') || /%(2f|5c|00)/i.test(raw)) return { ok: false };
  const segments = raw.slice(1).split('/');
  const decoded: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const last = i === segments.length - 1;
    if (segments[i] === '') {
      if (last) break; // trailing slash (or the root)
      return { ok: false };
    }
    let segment: string;
    try {
      segment = decodeURIComponent(segments[i]);
    } catch {
      return { ok: false };
    }
    // eslint-disable-next-line no-control-regex
    if (segment === '.' || segment === '..' || /[\x00-\x1f\x7f/\\]/.test(segment)) return { ok: false };
    decoded.push(segment);
  }
  const trailing = raw.endsWith('/') && decoded.length > 0 ? '/' : '';
  return { ok: true, rel: decoded.join('/') + trailing };
}

/**
 * The encoding to answer with for an `Accept-Encoding` header, among those the file has: the one
 * with the highest q-value (brotli first on a tie, `*` for any not named), none when the client
 * names none or refuses them (`q=0`).
 */
export function chooseEncoding(header: string | undefined, has: Partial<Record<Compression, unknown>>): Compression | undefined {
  if (!header) return undefined;
  // Browsers send a handful of distinct headers: each is parsed once, for the four sets of copies a
  // file may have. Bounded, since any client may send any header.
  let choices = encodingChoices.get(header);
  if (!choices) {
    if (encodingChoices.size >= MAX_ENCODING_CHOICES || header.length > MAX_CHOICE_HEADER) return parseEncoding(header, has);
    choices = [parseEncoding(header, {}), parseEncoding(header, { br: true }), parseEncoding(header, { gzip: true }), parseEncoding(header, { br: true, gzip: true })];
    encodingChoices.set(header, choices);
  }
  return choices[(has.br ? 1 : 0) | (has.gzip ? 2 : 0)];
}

const encodingChoices = new Map<string, Array<Compression | undefined>>();
const MAX_ENCODING_CHOICES = 256;
const MAX_CHOICE_HEADER = 256;

function parseEncoding(header: string, has: Partial<Record<Compression, unknown>>): Compression | undefined {
  const q: Partial<Record<Compression | '*', number>> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'br' && coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
    q[coding === 'x-gzip' ? 'gzip' : coding] = weight ? Number(weight[1]) : 1;
  }
  let best: Compression | undefined;
  let bestQ = 0;
  for (const { name } of COMPRESSIONS) {
    const weight = q[name] ?? q['*'] ?? 0;
    if (has[name] && weight > bestQ) [best, bestQ] = [name, weight];
  }
  return best;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Content-hashed names (Astro's `_astro/`, Pagefind's index chunks) never change: cache for a year. */
function cacheControlOf(rel: string): string {
  // A search shard's index (search-shards.ts) is at pagefind/ or pagefind/<k>/.
  if (rel.startsWith('_astro/') || /^pagefind\/(?:[1-9]\d*\/)?(?:fragment|index|filter)\//.test(rel) || /^pagefind\/(?:[1-9]\d*\/)?[^/]+\.pf_meta$/.test(rel)) return IMMUTABLE;
  return REVALIDATE;
}

/**
 * A site file's answer headers, decided by its path in the build (type, caching) wherever the
 * build is kept; `abs` is where its bytes are on disk, if they are. `more` are headers of both a
 * 200 and a 304 (a compressed copy's encoding, `Vary`).
 */
export function siteFileOf(rel: string, size: number, etag: string, abs = '', more: string[] = []): SiteFile {
  const contentType = contentTypeOf(rel);
  const notModifiedHeaders = ['content-type', contentType, 'etag', etag, 'cache-control', cacheControlOf(rel), 'x-content-type-options', 'nosniff', ...more];
  return {
    abs,
    size,
    etag,
    headers: [...notModifiedHeaders, 'content-length', String(size)],
    notModifiedHeaders,
    sandbox: contentType === 'image/svg+xml',
  };
}

export const MEMORY_FILE_BYTES = 256 * 1024;
/** All files kept in memory, across sites; beyond it, files are streamed from disk. */
const MEMORY_TOTAL_BYTES = 128 * 1024 * 1024;
const MAX_ENTRIES_PER_SITE = 20_000;
const MAX_SITES = 200;

/** Finds one candidate path (no `index.html` fallback) in a build: the file, or null. */
export type LookUpFile = (build: string, rel: string) => Promise<SiteFile | null>;

/** One build's cached lookups: the files found, and paths that named none. */
interface SiteCache {
  found: Map<string, SiteFile>;
  /**
   * Paths looked up in vain: any visitor chooses them, so they are kept only when short and at
   * most MAX_CACHED_MISSES_PER_SITE at a time (each distinct missing path used to stay cached).
   */
  missing: Set<string>;
}

/**
 * Caches lookups per build (a build directory on disk, or another key naming one build); the least
 * recently used builds are dropped.
 */
export class SiteFiles {
  private sites = new Map<string, SiteCache>();
  private memoryBytes = 0;
  private lookUpFile: LookUpFile;

  constructor(lookUpFile: LookUpFile = regularFileInside) {
    this.lookUpFile = lookUpFile;
  }

  /** What `find` resolved before for this path, without waiting (undefined: not looked up yet). */
  cached(buildDir: string, rel: string): SiteFile | null | undefined {
    const site = this.sites.get(buildDir);
    return site && (site.found.get(rel) ?? (site.missing.has(rel) ? null : undefined));
  }

  /** The file for `rel` in `buildDir` (a real path), trying `rel`, then `rel/index.html`; null if none. */
  async find(buildDir: string, rel: string): Promise<SiteFile | null> {
    const cached = this.cached(buildDir, rel);
    if (cached !== undefined) return cached;
    let site = this.sites.get(buildDir);
    if (site) {
      this.sites.delete(buildDir); // re-insert: most recently used last
      this.sites.set(buildDir, site);
    } else {
      site = { found: new Map(), missing: new Set() };
      this.sites.set(buildDir, site);
      if (this.sites.size > MAX_SITES) this.forget(this.sites.keys().next().value!);
    }
    const file = await this.lookUp(buildDir, rel);
    for (const held of file ? [file, ...Object.values(file.encoded ?? {})] : []) {
      if (!held.body) continue;
      if (this.memoryBytes + held.size > MEMORY_TOTAL_BYTES) delete held.body;
      else this.memoryBytes += held.size;
    }
    if (!file) {
      if (rel.length > MAX_CACHED_MISS_PATH) return null;
      if (site.missing.size >= MAX_CACHED_MISSES_PER_SITE) site.missing.clear(); // random paths must not grow memory without bound
      site.missing.add(rel);
      return null;
    }
    if (site.found.size >= MAX_ENTRIES_PER_SITE) this.clear(site);
    site.found.set(rel, file);
    return file;
  }

  /** Forgets a build directory (no longer live). */
  forget(buildDir: string): void {
    const site = this.sites.get(buildDir);
    if (site) this.clear(site);
    this.sites.delete(buildDir);
  }

  private clear(site: SiteCache): void {
    for (const file of site.found.values()) {
      for (const held of [file, ...Object.values(file.encoded ?? {})]) if (held.body) this.memoryBytes -= held.size;
    }
    site.found.clear();
    site.missing.clear();
  }

  private async lookUp(buildDir: string, rel: string): Promise<SiteFile | null> {
    const candidates = rel === '' || rel.endsWith('/') ? [`${rel}index.html`] : [rel, `${rel}/index.html`];
    for (const candidate of candidates) {
      const file = await this.lookUpFile(buildDir, candidate);
      if (file) return compressible(candidate) ? this.withCompressedCopies(buildDir, candidate, file) : file;
    }
    return null;
  }

  /** The file with its compressed copies, each answered with its own ETag and length; all of them `Vary: Accept-Encoding`. */
  private async withCompressedCopies(buildDir: string, rel: string, file: SiteFile): Promise<SiteFile> {
    const encoded: Partial<Record<Compression, SiteFile>> = {};
    for (const { name, suffix } of COMPRESSIONS) {
      const copy = await this.lookUpFile(buildDir, `${COMPRESSED_DIR}/${rel}${suffix}`);
      if (!copy) continue;
      encoded[name] = { ...siteFileOf(rel, copy.size, copy.etag, copy.abs, ['content-encoding', name, 'vary', 'accept-encoding']), body: copy.body, open: copy.open };
    }
    if (!encoded.br && !encoded.gzip) return file;
    return { ...siteFileOf(rel, file.size, file.etag, file.abs, ['vary', 'accept-encoding']), body: file.body, open: file.open, encoded };
  }
}

/** A regular file reached without following any link, strictly inside `buildDir`; else null. */
async function regularFileInside(buildDir: string, rel: string): Promise<SiteFile | null> {
  const abs = path.join(buildDir, rel);
  if (!abs.startsWith(buildDir + path.sep)) return null;
  const stat = await lstat(abs).catch(() => undefined);
  if (!stat?.isFile()) return null;
  // No directory on the way may be a link either: the real path must be the path asked for.
  if ((await realpath(abs).catch(() => '')) !== abs) return null;
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}-${stat.ino.toString(16)}"`;
  const file = siteFileOf(rel, stat.size, etag, abs);
  if (stat.size <= MEMORY_FILE_BYTES) file.body = await readFile(abs, { flag: BUILD_FILE_FLAGS });
  return file;
}

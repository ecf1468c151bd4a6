// Compressed copies of a build's text files, made once when the build is published, so that the
// site handler answers `Accept-Encoding: br` or `gzip` with bytes it only reads (no CPU per
// request; docs/decisions.md#compressed-sites). Each copy sits under COMPRESSED_DIR beside the
// build's files (`_folio/compressed/{path}.br`, `.gz`), so object storage uploads and serves them
// like any other file of the build.
//
// The build's output is tenant-made: only regular files are read (never through a link), the
// compressed folder is made of real directories by this step, copies are written under a fresh
// name and renamed into place (a rename replaces a link, never follows it), and a copy already
// there (the previous build's, linked in by a fast redeploy, or one the build wrote) is kept only
// when it decompresses, within the source's size, to exactly the source's bytes.
import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { COMPRESSED_DIR, COMPRESSIONS, compressible, type Compression } from '../builds/build-files.ts';
import { inParallel } from '../object-storage/folders.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const unbrotli = promisify(zlib.brotliDecompress);
const gunzip = promisify(zlib.gunzip);

/** Smaller files gain nothing worth a second request path (a header and a lookup cost more). */
const MIN_BYTES = 512;
/** Larger files are sent as they are: compressing them would hold up the publish. */
const MAX_BYTES = 8 * 1024 * 1024;
/** A copy is kept only when it saves at least this share of the bytes. */
const MAX_RATIO = 0.9;
/** Files compressed at once: zlib runs on libuv's threads, which serving's file reads share. */
const PARALLEL = 2;

/**
 * Brotli's quality by file: the highest (11) for the content-hashed assets under `_astro/` (a few
 * shared files, cached for a year, kept across builds by the check below), a fast one (6) for the
 * rest, which a build may write anew by the thousand. On a 34 KB page 11 saves another 12% but
 * takes 70 ms against 6's 1.4 ms: over a minute for a 1,000-page publish.
 */
function brotliQuality(rel: string): number {
  return rel.startsWith('_astro/') ? 11 : 6;
}

async function compress(kind: Compression, rel: string, bytes: Buffer): Promise<Buffer> {
  if (kind === 'gzip') return gzip(bytes, { level: 6 });
  return brotli(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(rel),
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** Whether `copy` decompresses to exactly `source` (never more than the source's size plus one byte). */
async function decompressesTo(kind: Compression, copy: Buffer, source: Buffer): Promise<boolean> {
  const options = { maxOutputLength: source.length + 1 };
  const bytes = await (kind === 'gzip' ? gunzip(copy, options) : unbrotli(copy, options)).catch(() => undefined);
  return !!bytes && bytes.equals(source);
}

/** A regular file's bytes, read without following a link; undefined for anything else or a larger file. */
async function readRegular(abs: string, maxBytes: number): Promise<Buffer | undefined> {
  const handle = await open(abs, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Makes each folder of a path inside `root` (which is real) a real directory, removing whatever else
 * is in the way (a link, a file the build left), each folder once: the files are compressed in
 * parallel, and two of them removing and making the same folder would remove each other's copies.
 */
function realDirectories(root: string): (rel: string) => Promise<void> {
  const made = new Map<string, Promise<void>>();
  const real = (rel: string): Promise<void> => {
    let done = made.get(rel);
    if (!done) {
      done = (async () => {
        const parent = path.posix.dirname(rel);
        if (parent !== '.') await real(parent);
        const dir = path.join(root, rel);
        const stat = await lstat(dir).catch(() => undefined);
        if (stat?.isDirectory()) return;
        if (stat) await rm(dir, { recursive: true, force: true });
        await mkdir(dir);
      })();
      made.set(rel, done);
    }
    return done;
  };
  return real;
}

/**
 * Text files under `dir` worth compressing, as `/`-separated paths; links and the compressed folder
 * are skipped. A walk with its own list of folders, each file added alone: a build's output may hold
 * a folder of 150,000 files, which a spread into push() would take as that many call arguments.
 */
async function textFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const folders = [''];
  for (let rel = folders.pop(); rel !== undefined; rel = folders.pop()) {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (child === COMPRESSED_DIR) continue;
      if (entry.isDirectory()) folders.push(child);
      else if (entry.isFile() && compressible(child)) found.push(child);
    }
  }
  return found.sort();
}

export interface PrecompressResult {
  /** Text files with a compressed copy. */
  files: number;
  /** Copies made now (the others were kept from before). */
  made: number;
}

/** Whether two paths are the same regular file (a hard link of it), never following a link. */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstat(a).catch(() => undefined), lstat(b).catch(() => undefined)]);
  return !!x?.isFile() && !!y?.isFile() && x.dev === y.dev && x.ino === y.ino;
}

/**
 * Writes the brotli and gzip copies of every text file of the build in `buildDir` (a real path),
 * keeping the copies that are already right; a file too small, too large or not shrinking gets
 * none (and loses any the build put there). `previousBuild`: the published build a fast redeploy
 * linked its unchanged files from. A file still linked to that build's, whose copy is still linked
 * to that build's copy, keeps it unread: Folio checked or made it when that build was published,
 * and a published build is never written again. That saves reading and decompressing every
 * unchanged page of a one-page change. `written` (with `previousBuild`): the only files the fast
 * redeploy wrote over that build's (BuildSiteResult.written); every other file and compressed copy
 * is that build's, linked, so only these are looked at: no walk of the whole site.
 */
export async function precompressBuild(buildDir: string, previousBuild?: string, written?: string[]): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, made: 0 };
  const sources = previousBuild && written ? [...new Set(written)].filter((rel) => compressible(rel) && !rel.startsWith(`${COMPRESSED_DIR}/`)).sort() : await textFiles(buildDir);
  const realDirectory = realDirectories(buildDir);
  await inParallel(sources, PARALLEL, async (rel) => {
    const sourceAbs = path.join(buildDir, rel);
    const copies = COMPRESSIONS.map((kind) => ({ kind, rel: `${COMPRESSED_DIR}/${rel}${kind.suffix}` }));
    const unchanged = !!previousBuild && (await sameFile(sourceAbs, path.join(previousBuild, rel)));
    let source: Buffer | undefined;
    let kept = 0;
    for (const copy of copies) {
      const copyAbs = path.join(buildDir, copy.rel);
      if (unchanged && (await sameFile(copyAbs, path.join(previousBuild!, copy.rel)))) {
        kept++;
        continue;
      }
      source ??= await readRegular(sourceAbs, MAX_BYTES);
      if (!source || source.length < MIN_BYTES) {
        // No copy for this file: none the build wrote may stand in for it (removed inside real directories only).
        await realDirectory(path.posix.dirname(copy.rel));
        await Promise.all(copies.map((c) => rm(path.join(buildDir, c.rel), { recursive: true, force: true })));
        return;
      }
      const existing = await readRegular(copyAbs, source.length);
      if (existing && existing.length <= source.length * MAX_RATIO && (await decompressesTo(copy.kind.name, existing, source))) {
        kept++;
        continue;
      }
      const bytes = await compress(copy.kind.name, rel, source);
      await realDirectory(path.posix.dirname(copy.rel));
      if (bytes.length > source.length * MAX_RATIO) {
        await rm(copyAbs, { recursive: true, force: true });
        continue;
      }
      const temp = `${copyAbs}.${randomUUID()}.tmp`;
      await writeFile(temp, bytes, { flag: 'wx' });
      await rename(temp, copyAbs).catch(async (error: unknown) => {
        // A directory in the copy's place (the build's): it goes, then the copy takes its name.
        await rm(copyAbs, { recursive: true, force: true });
        await rename(temp, copyAbs).catch(async () => {
          await rm(temp, { force: true });
          throw error;
        });
      });
      result.made++;
      kept++;
    }
    if (kept) result.files++;
  });
  return result;
}

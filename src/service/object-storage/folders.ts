// A folder of the data dir put into object storage file by file, with a manifest (path, size,
// SHA-256 of each file) that says what the folder holds: a build the site handler serves from, a
// snapshot a deployment built. Only regular files are taken: a link made by a build (tenant code)
// is never followed, and a name no request path could name (control characters, backslashes) is
// left out.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BUILD_FILE_FLAGS } from '../builds/build-files.ts';
import type { ObjectStore } from './client.ts';

export interface ManifestEntry {
  size: number;
  sha256: string;
}

/** A folder's files by path relative to it (`/`-separated). */
export type Manifest = Map<string, ManifestEntry>;

const manifestSchema = z.object({
  files: z.array(z.tuple([z.string().min(1), z.number().int().nonnegative(), z.string().regex(/^[0-9a-f]{64}$/)])),
});

export function encodeManifest(manifest: Manifest): string {
  return JSON.stringify({ files: [...manifest].map(([rel, entry]) => [rel, entry.size, entry.sha256]) });
}

/** The manifest in `text`, or undefined when it is not one. */
export function decodeManifest(text: string): Manifest | undefined {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    return new Map(parsed.data.files.map(([rel, size, sha256]) => [rel, { size, sha256 }]));
  } catch {
    return undefined;
  }
}

// eslint-disable-next-line no-control-regex
const UNSERVABLE = /[\x00-\x1f\x7f\\]/;

/** Regular files under `dir`, as `/`-separated paths relative to it. */
async function filesUnder(dir: string, rel = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    if (UNSERVABLE.test(entry.name)) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await filesUnder(dir, child)));
    else if (entry.isFile()) found.push(child);
  }
  return found;
}

/** Files up to this size are read once (hash and upload from memory); larger ones are streamed twice. */
const IN_MEMORY_BYTES = 8 * 1024 * 1024;
const PARALLEL_UPLOADS = 8;

async function hashFile(file: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of file.createReadStream({ start: 0, autoClose: false })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Runs `work` on every item, at most `limit` at a time; the first failure is thrown. */
export async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Uploads every regular file under `dir` to `keyOf(path)`; returns the manifest (not uploaded). */
export async function uploadFolder(objects: ObjectStore, dir: string, keyOf: (rel: string) => string, contentTypeOf?: (rel: string) => string): Promise<Manifest> {
  const manifest: Manifest = new Map();
  const files = await filesUnder(dir);
  await inParallel(files, PARALLEL_UPLOADS, async (rel) => {
    // Opened as the site handler opens a build's files, and taken only if still a regular file.
    const file = await open(path.join(dir, rel), BUILD_FILE_FLAGS).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ELOOP' || error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!file) return;
    try {
      const stat = await file.stat();
      if (!stat.isFile()) return;
      const size = stat.size;
      const contentType = contentTypeOf?.(rel);
      if (size <= IN_MEMORY_BYTES) {
        const bytes = await file.readFile();
        manifest.set(rel, { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
        await objects.put(keyOf(rel), bytes, { contentType });
      } else {
        manifest.set(rel, { size, sha256: await hashFile(file) });
        await objects.put(keyOf(rel), file.createReadStream({ start: 0, autoClose: false }), { contentType, contentLength: size });
      }
    } finally {
      await file.close();
    }
  });
  // Sorted, so that the same folder always gives the same manifest.
  return new Map([...manifest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Writes the files a manifest lists from `keyOf(path)` into `dir` (which it creates). */
export async function downloadFolder(objects: ObjectStore, manifest: Manifest, keyOf: (rel: string) => string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await inParallel([...manifest.keys()], PARALLEL_UPLOADS, async (rel) => {
    // Paths come from Folio's own manifest, checked again: nothing is written outside `dir`.
    const file = path.join(dir, rel);
    if (!file.startsWith(dir + path.sep) || rel.split('/').some((s) => s === '' || s === '.' || s === '..')) return;
    const bytes = await objects.get(keyOf(rel));
    if (!bytes) throw new Error(`object storage lost ${keyOf(rel)}`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
  });
}

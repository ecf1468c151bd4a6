// What a build's files are, for everything that reads or stores them: how they are opened, their
// Content-Type, their compressed copies. Hosting serves by these; publish (precompress.ts) and
// object storage (object-storage.ts) write by them, so all agree.
import { constants as fsConstants } from 'node:fs';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
};

/** The Content-Type a site file is served with, by its extension. */
export function contentTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * How the server opens a file of a build: never through a link (O_NOFOLLOW), and never waiting
 * (O_NONBLOCK: opening a FIFO for reading would wait for a writer, holding one of the few threads
 * every file operation of the server shares). Builds hold only regular files (src/builder/output.ts checks
 * them before publishing); this holds if one ever does not. The opener still checks the type.
 */
export const BUILD_FILE_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/** The encodings sites are sent in besides the files' own bytes, best first, with their copies' name suffix. */
export type Compression = 'br' | 'gzip';
export const COMPRESSIONS: readonly { name: Compression; suffix: string }[] = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];
/** Where a build's compressed copies are kept, beside its files: Folio's, never served by their own path. */
export const COMPRESSED_DIR = '_folio/compressed';

const TEXT_TYPE = /^(?:text\/|application\/(?:json|manifest\+json|xml)|image\/svg\+xml)/;

/** Whether a site file is text worth compressing (HTML, CSS, JS, JSON, SVG, XML, txt, Markdown); images and fonts are compressed already. */
export function compressible(file: string): boolean {
  return TEXT_TYPE.test(contentTypeOf(file));
}

// `astro dev` of a repository in Mintlify's layout: its static files (images next to pages, logos,
// PDFs …) are served at their own paths, as a build copies them (src/builder/output.ts). Only files the layout's
// walk lists as static files are served (src/site/layout.ts: never dot files, docs.json, snippets/, ignored
// or scriptable files), opened without following links; anything else goes on to Astro.
import { constants as fsConstants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRequestPath, contentTypeOf } from '../../hosting/site-files.ts';
import { listRootFilesAsync } from '../layout.ts';

/** A Connect middleware serving the static files of the Mintlify repository at `root`. */
export function mintlifyStaticFiles(root: string) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    serve(root, req, res).then((served) => (served ? undefined : next()), next);
  };
}

async function serve(root: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const check = checkRequestPath(req.url ?? '/');
  if (!check.ok || !check.rel || check.rel.endsWith('/')) return false;
  // Listed afresh on each request: a preview shows files added since it started, like pages.
  const { assets } = await listRootFilesAsync(root);
  if (!assets.includes(check.rel)) return false;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(path.join(root, ...check.rel.split('/')), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
    const stat = await handle.stat();
    if (!stat.isFile()) return false;
    const contentType = contentTypeOf(check.rel);
    res.writeHead(200, {
      'content-type': contentType,
      'content-length': String(stat.size),
      'x-content-type-options': 'nosniff',
      // As on the live site (src/hosting/site-files.ts): an SVG opened directly runs none of its scripts.
      ...(contentType === 'image/svg+xml' ? { 'content-security-policy': 'sandbox' } : {}),
    });
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    const stream = createReadStream('', { fd: handle, autoClose: true });
    handle = undefined; // the stream closes it
    stream.pipe(res);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return false;
    throw error;
  } finally {
    await handle?.close();
  }
}

// Folio's earlier addresses of generated API pages (`/api-reference/<operationId>/`) send readers
// on to Mintlify's addresses (docs/decisions.md#openapi-reference-pages). The page route lists them
// in REDIRECTS_FILE (one endpoint render); once Astro is done, the integration turns each line into
// a tiny HTML page with a meta refresh (no script) and removes the list. Writing them with the
// file system costs a fraction of rendering a page each through Astro.
import fs from 'node:fs';
import path from 'node:path';

/** `from to` per line, both page hrefs (`/api-reference/get-order/ /reference/orders/get-an-order/`). */
export const REDIRECTS_FILE = '_folio/redirects.txt';

/** Old addresses are kebab-case segments (they become folders of the output); new ones are encoded hrefs. */
const OLD_HREF = /^\/(?:[a-z0-9_-]+\/)+$/;
const NEW_HREF = /^\/(?:[A-Za-z0-9._~%!*()-]+\/)+$/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function redirectPage(to: string): string {
  const href = escapeHtml(to);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="0; url=${href}"><link rel="canonical" href="${href}"><title>Moved</title></head><body><p>This page moved to <a href="${href}">${href}</a>.</p></body></html>\n`;
}

/** Writes the redirect pages the build listed into `outDir`, never over a file, and removes the list. */
export function writeRedirectPages(outDir: string): number {
  const list = path.join(outDir, REDIRECTS_FILE);
  if (!fs.lstatSync(list, { throwIfNoEntry: false })?.isFile()) return 0;
  const text = fs.readFileSync(list, 'utf8');
  fs.rmSync(list);
  let written = 0;
  for (const line of text.split('\n')) {
    const [from, to] = line.split(' ');
    if (!from || !to || !OLD_HREF.test(from) || !NEW_HREF.test(to)) continue;
    const dir = path.join(outDir, ...from.split('/').filter(Boolean));
    if (!dir.startsWith(`${outDir}${path.sep}`)) continue;
    fs.mkdirSync(dir, { recursive: true });
    // `wx` never writes over a page: a file already there (a page at that address) is kept.
    try {
      fs.writeFileSync(path.join(dir, 'index.html'), redirectPage(to), { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    written += 1;
  }
  return written;
}

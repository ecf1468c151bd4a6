// Folio's earlier addresses of generated API pages (`/api-reference/<operationId>/`) send readers
// on to Mintlify's addresses (docs/decisions.md#openapi-reference-pages). The page route lists them
// in REDIRECTS_FILE (one endpoint render); once Astro is done, the integration turns each line into
// a tiny HTML page with a meta refresh (no script) and removes the list. Writing them with the
// file system costs a fraction of rendering a page each through Astro.
import { takeList, writeNewFile } from './build-lists.ts';

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
  const text = takeList(outDir, REDIRECTS_FILE);
  if (text === undefined) return 0;
  let written = 0;
  const made = new Set<string>();
  for (const line of text.split('\n')) {
    const [from, to] = line.split(' ');
    if (!from || !to || !OLD_HREF.test(from) || !NEW_HREF.test(to)) continue;
    if (writeNewFile(outDir, [...from.split('/').filter(Boolean), 'index.html'], redirectPage(to), made)) written += 1;
  }
  return written;
}

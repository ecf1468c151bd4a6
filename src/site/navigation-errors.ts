// The message of a navigation entry that names no page, pointing at the entry in the site file:
// `docs.json:12:9: navigation.tabs.0.groups.1.pages.2: no page "guides/missing" (…)`, or in the
// file a `$ref` of docs.json read it from: `i18n/es.json:7:9: groups.0.pages.1: …`.
import fs from 'node:fs';
import { formatConfigIssue } from './config/config-values.ts';
import { loadDocsConfigWithWarnings, siteConfigFile } from './config/site-config-file.ts';
import type { NavigationError } from './navigation.ts';

export function navigationErrorMessage(contentRoot: string, error: NavigationError, expected: (path: string) => string): string {
  const found = siteConfigFile(contentRoot);
  const page = error.entry.replace(/^\/+|\/+$/g, '') || 'index';
  const message = `${error.message}${error.message.startsWith('no page') ? ` (${expected(page)})` : ''}`;
  // docs.json's own parse knows where each key is written (docs.json or a referenced file), the
  // list form of Folio's first format included.
  const located = found?.file === 'docs.json' ? locate(contentRoot, error.key) : undefined;
  if (located) return formatConfigIssue({ ...located, message });
  let at = { line: 1, column: 1 };
  if (found) {
    // mint.json is mapped onto another shape: point at the first place the entry is written.
    const text = fs.readFileSync(found.abs, 'utf8');
    const offset = text.indexOf(JSON.stringify(error.entry));
    if (offset >= 0) {
      const before = text.slice(0, offset);
      at = { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
    }
  }
  return formatConfigIssue({ file: found?.file ?? 'docs.json', key: found?.file === 'mint.json' ? 'navigation' : error.key, message, ...at });
}

/**
 * Where the key is written in docs.json as it is now; none when it cannot be read now: in astro dev
 * the site's settings are the last good docs.json while a broken one is saved (integration.ts).
 */
function locate(contentRoot: string, key: string) {
  try {
    return loadDocsConfigWithWarnings(contentRoot).locate?.(key.split('.'));
  } catch {
    return undefined;
  }
}

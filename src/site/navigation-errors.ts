// The message of a navigation entry that names no page, pointing at the entry in the site file:
// `docs.json:12:9: navigation.tabs.0.groups.1.pages.2: no page "guides/missing" (…)`.
import fs from 'node:fs';
import { formatConfigIssue } from './config-values.ts';
import { siteConfigFile } from './docs-config.ts';
import { jsonLocations, positionOf, type TextPosition } from './json-locations.ts';
import type { NavigationError } from './navigation.ts';

export function navigationErrorMessage(contentRoot: string, error: NavigationError, expected: (path: string) => string): string {
  const found = siteConfigFile(contentRoot);
  const file = found?.file ?? 'docs.json';
  let key = error.key;
  let at: TextPosition = { line: 1, column: 1 };
  if (found) {
    const text = fs.readFileSync(found.abs, 'utf8');
    const locations = jsonLocations(text);
    // Folio's first format, a list of groups, is read as {"groups": […]}: name the key as written.
    if (file === 'docs.json' && locations.has(['navigation', 0]) && key.startsWith('navigation.groups.')) key = key.replace('navigation.groups.', 'navigation.');
    if (file === 'docs.json') at = positionOf(locations, key.split('.'));
    else {
      // mint.json is mapped onto another shape: point at the first place the entry is written.
      const offset = text.indexOf(JSON.stringify(error.entry));
      if (offset >= 0) {
        const before = text.slice(0, offset);
        at = { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
      }
    }
  }
  const page = error.entry.replace(/^\/+|\/+$/g, '') || 'index';
  const hint = error.message.startsWith('no page') ? ` (${expected(page)})` : '';
  return formatConfigIssue({ file, key: file === 'docs.json' ? key : 'navigation', message: `${error.message}${hint}`, ...at });
}

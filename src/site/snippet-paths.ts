// How a Snippet's `file` prop names a snippet (docs/decisions.md#content-root). Resolution is a lookup in the set of
// gathered snippets, never a disk read, so no `file` value can reach outside `_snippets/`.
import path from 'node:path';

export const SNIPPETS_DIR = '_snippets';

/**
 * The key of a snippet in the gathered set: its path relative to `_snippets/`, with `/` separators
 * (`intro.mdx`, `api/auth.mdx`). `file` may be `_snippets/intro.mdx`, `./_snippets/intro.mdx`,
 * `/_snippets/intro.mdx` or `intro.mdx`. Returns undefined for a path that escapes `_snippets/`.
 */
export function snippetKey(file: string): string | undefined {
  let p = file.trim().replaceAll('\\', '/').replace(/^\.\//, '').replace(/^\/+/, '');
  if (p.startsWith(`${SNIPPETS_DIR}/`)) p = p.slice(SNIPPETS_DIR.length + 1);
  const normal = path.posix.normalize(p);
  if (!normal || normal === '.' || normal.startsWith('../') || normal === '..' || path.posix.isAbsolute(normal)) return undefined;
  return normal;
}

/** The display path of a snippet key, as authors write it. */
export function snippetFile(key: string): string {
  return `${SNIPPETS_DIR}/${key}`;
}

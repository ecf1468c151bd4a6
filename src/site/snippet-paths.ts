// How a Snippet's `file` prop, or a snippet import, names a snippet (docs/decisions.md#content-root).
// Resolution is a lookup in the set of gathered snippets, never a disk read, so no `file` value can
// reach outside the snippets folder (`_snippets/`, or `snippets/` in Mintlify's layout, layout.ts).
import path from 'node:path';

export const SNIPPETS_DIR = '_snippets';

/**
 * The key of a snippet in the gathered set: its path relative to the snippets folder `dir`, with `/`
 * separators (`intro.mdx`, `api/auth.mdx`). `file` may be `_snippets/intro.mdx`,
 * `./_snippets/intro.mdx`, `/_snippets/intro.mdx` or `intro.mdx`. Returns undefined for a path that
 * escapes the snippets folder.
 */
export function snippetKey(file: string, dir: string = SNIPPETS_DIR): string | undefined {
  let p = file.trim().replaceAll('\\', '/').replace(/^\.\//, '').replace(/^\/+/, '');
  if (p.startsWith(`${dir}/`)) p = p.slice(dir.length + 1);
  const normal = path.posix.normalize(p);
  if (!normal || normal === '.' || normal.startsWith('../') || normal === '..' || path.posix.isAbsolute(normal)) return undefined;
  return normal;
}

/** The display path of a snippet key, as authors write it. */
export function snippetFile(key: string, dir: string = SNIPPETS_DIR): string {
  return `${dir}/${key}`;
}

/**
 * The snippet key an MDX import names (`import Intro from '/snippets/intro.mdx'` or a path relative
 * to the importing file `importer`, itself relative to the content root), or undefined when the
 * import is not of a `.md`/`.mdx` file inside the snippets folder `dir`.
 */
export function importedSnippetKey(specifier: string, importer: string, dir: string): string | undefined {
  if (!/\.mdx?$/.test(specifier) || /[?#%\\\0]/.test(specifier)) return undefined;
  let target: string;
  if (specifier.startsWith('/') && !specifier.startsWith('//')) target = path.posix.normalize(specifier.slice(1));
  else if (specifier.startsWith('./') || specifier.startsWith('../')) target = path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier));
  else return undefined;
  if (!target.startsWith(`${dir}/`)) return undefined;
  return snippetKey(target.slice(dir.length + 1), dir);
}

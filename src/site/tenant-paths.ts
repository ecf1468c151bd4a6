// What tenants see of file names: a deployment's error and log name files relative to the content
// root (`content/index.mdx:3:1`); every other server path (the data dir, the Folio install and its
// node_modules, build roots, the sandbox's own mount points, `../../…` forms that climb out of a
// build root) becomes a neutral placeholder, so nothing of the host's layout reaches a tenant.
import fs from 'node:fs';
import path from 'node:path';

export const PATH_PLACEHOLDER = '…';

export interface PathView {
  /** Directories that are the content root (the host snapshot, its path inside the sandbox). */
  contentRoots: string[];
  /** Directories whose paths always become the placeholder (the data dir, the Folio install). */
  hidden?: string[];
  /** What relative `../` paths in messages are relative to (the build's Astro root). */
  base?: string;
  /** Relative names that are server paths too (`.folio-builds/…`, as tools print them). */
  hiddenRelative?: string[];
}

/** Top-level host directories: an absolute path that starts with one of them is a server path. */
const TOP_LEVEL = new Set(fs.readdirSync('/'));

// A path token: absolute (`/a/b`, `file:///a/b`) or climbing (`../a`), not part of a URL
// (`https://x/a`) nor of a relative name (`content/a`). It ends at white space, quotes or brackets.
const TOKEN = /(?<![\w:/.~-])(?:file:\/\/)?(?:\/|(?:\.\.\/)+)[^\s'"`()<>[\]{},;]*/g;

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/** `text` with every server path replaced: content files relative to the root, anything else hidden. */
export function scrubPaths(text: string, view: PathView): string {
  for (const name of view.hiddenRelative ?? []) {
    text = text.replace(new RegExp(`(?<![\\w/.-])${RegExp.escape(name)}[^\\s'"\`()<>[\\]{},;]*`, 'g'), PATH_PLACEHOLDER);
  }
  return text.replace(TOKEN, (token) => {
    const bare = token.startsWith('file://') ? token.slice('file://'.length) : token;
    if (bare === '/') return token;
    // A location suffix (`:3:5`) stays as it is.
    const m = /^(.*?)((?::\d+)*)$/.exec(bare)!;
    const name = m[1]!;
    const suffix = m[2]!;
    const absolute = name.startsWith('/') ? path.posix.normalize(name) : view.base ? path.posix.resolve(view.base, name) : undefined;
    if (!absolute) return PATH_PLACEHOLDER + suffix;
    for (const root of view.contentRoots) {
      if (inside(absolute, root)) return (path.posix.relative(root, absolute) || '.') + suffix;
    }
    // A climbing path that does not end in the content root, any known server dir, and any path
    // under a top-level directory of the host (site routes such as /guides/intro stay).
    const first = absolute.split('/')[1] ?? '';
    if (!name.startsWith('/') || (view.hidden ?? []).some((d) => inside(absolute, d)) || (TOP_LEVEL.has(first) && absolute.includes('/', 1)) ) {
      return PATH_PLACEHOLDER + suffix;
    }
    return token;
  });
}

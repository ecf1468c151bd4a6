// What tenants see of file names: a deployment's error and log name files relative to the content
// root (`content/index.mdx:3:1`); every other server path (the data dir, the Folio install and its
// node_modules, build roots, the sandbox's own mount points, `../../…` forms that climb out of a
// build root) becomes a neutral placeholder, so nothing of the host's layout reaches a tenant.
import fs from 'node:fs';
import os from 'node:os';
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

// A path token: absolute (`/a/b`, `file:///a/b`) or climbing (`../a`), not part of a URL
// (`https://x/a`) nor of a relative name (`content/a`). It ends at white space, quotes or brackets.
const TOKEN = /(?<![\w:/.~-])(?:file:\/\/)?(?:\/|(?:\.\.\/)+)[^\s'"`()<>[\]{},;]*/g;

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/** Directories of every server: temp files and the home of the user Folio runs as. */
const SERVER_DIRS = [os.tmpdir(), os.homedir()].filter((d) => d && d !== '/');

const hiddenDirs = (view: PathView) => [...(view.hidden ?? []), ...SERVER_DIRS];

/** The names directly in each server directory (listServerDirs); undefined: too many to keep. */
const serverNames = new Map<string, ReadonlySet<string> | undefined>();
/** Most names kept of one directory; one with more is taken to hold every name. */
const MAX_LISTED_NAMES = 10_000;

/**
 * Lists the directories `view` hides, and those between them and `view.base` (where climbing
 * paths start), so that scrubPaths can tell a climbing path that reaches something of the server
 * from one a tenant made up without a file-system call per path: a build's output is tenant-made,
 * and one line may hold thousands of paths. Called once a build has its root (names made later in
 * these directories count as the server's only from the next build on).
 */
export async function listServerDirs(view: PathView): Promise<void> {
  const hidden = hiddenDirs(view);
  const dirs = new Set(hidden);
  for (let dir = view.base; dir && dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (hidden.some((d) => inside(dir!, d))) dirs.add(dir);
  }
  await Promise.all(
    [...dirs].map(async (dir) => {
      const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
      serverNames.set(dir, names.length > MAX_LISTED_NAMES ? undefined : new Set(names));
    }),
  );
}

/**
 * Whether `absolute`, inside one of `hidden`, may name a file of the server: the first name below
 * the deepest listed directory it lies in is an entry of that directory (or the innermost hidden
 * directory it lies in was never listed).
 */
function namesServerEntry(absolute: string, hidden: string[]): boolean {
  const innermost = hidden.filter((d) => inside(absolute, d)).reduce((a, b) => (b.length > a.length ? b : a));
  if (!serverNames.has(innermost)) return true;
  let dir = innermost;
  for (const listed of serverNames.keys()) {
    if (listed.length > dir.length && inside(absolute, listed) && inside(listed, innermost)) dir = listed;
  }
  const names = serverNames.get(dir);
  if (!names) return true;
  const below = absolute.slice(dir.length).replace(/^\/+/, '');
  const slash = below.indexOf('/');
  return below === '' || names.has(slash === -1 ? below : below.slice(0, slash));
}

/**
 * `text` with every server path replaced: content files relative to the root, anything else hidden.
 * Paths a tenant wrote itself and a message quotes back (`"../../etc/passwd"` in a docs.json) stay,
 * so the message still says what to fix: an absolute path is hidden when it lies in a server
 * directory, a climbing one when it leads into one of the server's own entries (namesServerEntry:
 * no file-system call per path) or names a server directory.
 */
export function scrubPaths(text: string, view: PathView): string {
  const hidden = hiddenDirs(view);
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
    const climbing = !name.startsWith('/');
    const absolute = !climbing ? path.posix.normalize(name) : view.base ? path.posix.resolve(view.base, name) : undefined;
    if (absolute) {
      for (const root of view.contentRoots) {
        if (inside(absolute, root)) return (path.posix.relative(root, absolute) || '.') + suffix;
      }
    }
    const inHidden = absolute !== undefined && hidden.some((d) => inside(absolute, d));
    if (!climbing && inHidden) return PATH_PLACEHOLDER + suffix;
    if (climbing) {
      const rest = name.replace(/^(?:\.\.\/)+/, '');
      // Relative to some other directory than `base`, but plainly a content root's file.
      const root = view.contentRoots.find((r) => inside(`/${rest}`, r));
      if (root) return (path.posix.relative(root, `/${rest}`) || '.') + suffix;
      const namesServerDir = rest.split('/').includes('node_modules') || hidden.some((d) => `/${rest}/`.includes(`${d}/`));
      if (namesServerDir || (inHidden && namesServerEntry(absolute!, hidden))) return PATH_PLACEHOLDER + suffix;
    }
    return token;
  });
}

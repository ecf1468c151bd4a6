// The two layouts a content root may have (docs/decisions.md#content-root), and the one walk that
// lists its files: the content check, the content collections and the copy of static files all
// read the same list, so a file is built only if it was checked, and served only if it was listed.
//
// - Folio's: pages under `content/`, snippets under `_snippets/`, static files under `public/`.
// - Mintlify's (a `docs.json` or `mint.json` at the top and no `content/` folder): every `.md`/`.mdx`
//   file is a page at its own path, `snippets/` holds snippets, and every other file is served at
//   its own path. Left out, as Mintlify leaves them out (https://mintlify.com/docs/organize/mintignore):
//   its default ignored folders and files, and what `.mintignore` (gitignore syntax) names. Folio
//   also leaves out every dot file and dot folder (`.env`, `.git`), `docs.json`/`mint.json` (site
//   settings, which may name integration keys), and never follows a symbolic link.
// Plain Node, no Astro imports: the check processes, the pages API and the build all use it.
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export type LayoutKind = 'folio' | 'mintlify';

export interface ContentLayout {
  kind: LayoutKind;
  /** Folder of the pages, relative to the content root: `content`, or `` (the root itself). */
  pagesDir: string;
  /** Folder of the snippets, relative to the content root. */
  snippetsDir: string;
  /** Folder Astro copies as it is (Folio's layout only; Mintlify's files are listed one by one). */
  publicDir?: string;
  /** The site settings file: `docs.json`, or `mint.json` when only that one exists. */
  configFile: string;
}

export const FOLIO_LAYOUT: ContentLayout = { kind: 'folio', pagesDir: 'content', snippetsDir: '_snippets', publicDir: 'public', configFile: 'docs.json' };
export const MINTLIFY_LAYOUT: ContentLayout = { kind: 'mintlify', pagesDir: '', snippetsDir: 'snippets', configFile: 'docs.json' };

/** The settings files that mark a Mintlify repository, in the order they are preferred. */
export const MINTLIFY_CONFIG_FILES = ['docs.json', 'mint.json'] as const;

/**
 * What Mintlify ignores without being told (gitignore patterns, any depth): build and dependency
 * folders, a repository's own notes (README, LICENSE, CHANGELOG, CONTRIBUTING) and the instruction
 * files of coding agents (AGENTS.md, CLAUDE.md, SKILL.md or skill.md), which Mintlify does not
 * publish as pages (https://mintlify.com/docs/organize/mintignore); in `.md` or `.mdx`, as Mintlify
 * reads both. Matched case-sensitively, as git on Linux matches: `changelog.mdx` is a page (real
 * repositories have one), `CHANGELOG.md` is not.
 */
export const MINTLIFY_IGNORED = [
  'node_modules',
  'build',
  'dist',
  'coverage',
  'tmp',
  'temp',
  ...['README', 'LICENSE', 'CHANGELOG', 'CONTRIBUTING', 'AGENTS', 'CLAUDE', 'SKILL', 'skill'].flatMap((name) => [`${name}.md`, `${name}.mdx`]),
];

/** Files at the top of a Mintlify repository that are settings of its tools, not content to serve. */
const NOT_SERVED = new Set(['package.json', 'package-lock.json', 'tsconfig.json', 'jsconfig.json']);

/** The ignore file of a Mintlify repository, at its top. */
export const MINTIGNORE = '.mintignore';

const present = (file: string) => {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
};

/** The layout of the content root at `root` (read from the disk, without following links). */
export function contentLayout(root: string): ContentLayout {
  if (present(path.join(root, 'content'))) return FOLIO_LAYOUT;
  const config = MINTLIFY_CONFIG_FILES.find((file) => present(path.join(root, file))?.isFile());
  if (!config) return FOLIO_LAYOUT;
  return { ...MINTLIFY_LAYOUT, configFile: config };
}

/** Page, snippet and static files of a content root, relative to it with `/` separators. */
export interface RootFiles {
  layout: ContentLayout;
  /** Page files (`content/guides/install.mdx`, or `guides/install.mdx` in Mintlify's layout). */
  pages: string[];
  /** Snippet files (`_snippets/intro.mdx`, `snippets/intro.mdx`). */
  snippets: string[];
  /** Files served at their own path (Mintlify's layout; Folio's serves `public/` as a whole). */
  assets: string[];
  /** The site settings file, when there is one. */
  config?: string;
  /** Entries that may not be in a content root: links, special files, unsafe names. */
  refused: Array<{ file: string; reason: 'symlink' | 'special' | 'name' | 'scriptable' }>;
  /** Files of Mintlify's layout left out, with why (shown as warnings). */
  skipped: Array<{ file: string; reason: string }>;
}

const CONTENT_FILE = /\.(md|mdx)$/;

/**
 * Pages and snippets are imported as modules by their path: `a?x=.mdx` would load the module `a`
 * (a repository's script) and run it. Static files are only copied.
 */
// eslint-disable-next-line no-control-regex
export const MODULE_QUERY = /[?#%\\\u0000-\u001f]/;

/**
 * Files served as they are, on the site's own origin: an HTML or XML document would run its scripts
 * as the site, past every rule pages follow (SVG is served sandboxed).
 */
export const SCRIPTABLE_DOCUMENT = /\.(?:html?|xhtml?|xml)$/i;

/**
 * Lists the files of the content root at `root`, synchronously (the content collections need the
 * list while their config module loads).
 */
export function listRootFiles(root: string, layout: ContentLayout = contentLayout(root)): RootFiles {
  const plan = listing(root, layout);
  let step = plan.next();
  while (!step.done) step = plan.next(fs.readdirSync(path.join(root, step.value), { withFileTypes: true }));
  return step.value;
}

/** The same list, reading folders without blocking the event loop (the check before a build, in the server). */
export async function listRootFilesAsync(root: string, layout: ContentLayout = contentLayout(root)): Promise<RootFiles> {
  const plan = listing(root, layout);
  let step = plan.next();
  while (!step.done) step = plan.next(await fs.promises.readdir(path.join(root, step.value), { withFileTypes: true }));
  return step.value;
}

/** The walk, written once: it yields each folder to read (relative to the root) and is given its entries. */
function* listing(root: string, layout: ContentLayout): Generator<string, RootFiles, fs.Dirent[]> {
  const files: RootFiles = { layout, pages: [], snippets: [], assets: [], refused: [], skipped: [] };
  if (layout.kind === 'folio') yield* listFolio(root, files);
  else yield* listMintlify(root, files);
  files.pages.sort();
  files.snippets.sort();
  files.assets.sort();
  return files;
}

function* listFolio(root: string, files: RootFiles): Generator<string, void, fs.Dirent[]> {
  for (const dir of ['content', '_snippets', 'public']) {
    const stat = present(path.join(root, dir));
    if (stat?.isDirectory()) {
      yield* walk(dir, (rel, entry) => {
        if (!rel.startsWith('public/') && MODULE_QUERY.test(entry)) return files.refused.push({ file: rel, reason: 'name' }), false;
        return true;
      }, (rel) => {
        if (rel.startsWith('public/')) {
          if (SCRIPTABLE_DOCUMENT.test(rel)) files.refused.push({ file: rel, reason: 'scriptable' });
        } else if (CONTENT_FILE.test(rel)) (rel.startsWith('content/') ? files.pages : files.snippets).push(rel);
      }, files);
    } else if (stat) files.refused.push({ file: dir, reason: stat.isSymbolicLink() ? 'symlink' : 'special' });
  }
  // docs.json, else mint.json (Mintlify's older name) configures the site (config/docs-config.ts).
  for (const file of MINTLIFY_CONFIG_FILES) {
    const config = present(path.join(root, file));
    if (config?.isFile()) files.config ??= file;
    else if (config) files.refused.push({ file, reason: config.isSymbolicLink() ? 'symlink' : 'special' });
  }
}

/** The gitignore rules of a Mintlify repository: Mintlify's defaults, then its `.mintignore`. */
export function mintlifyIgnore(root: string): Pick<Ignore, 'ignores'> {
  const defaults = ignore({ ignorecase: false }).add(MINTLIFY_IGNORED);
  const file = path.join(root, MINTIGNORE);
  if (!present(file)?.isFile()) return defaults;
  const own = ignore().add(fs.readFileSync(file, 'utf8'));
  // `.mintignore` comes after the defaults: its `!pattern` brings back what they leave out.
  return {
    ignores: (rel) => {
      const { ignored, unignored } = own.test(rel);
      return ignored || (!unignored && defaults.ignores(rel));
    },
  };
}

function* listMintlify(root: string, files: RootFiles): Generator<string, void, fs.Dirent[]> {
  const rules = mintlifyIgnore(root);
  const snippetsPrefix = `${files.layout.snippetsDir}/`;
  yield* walk(
    '',
    (rel, name, isDir) => {
      // Dot files and folders (.git, .env, .github) are never read, listed or served.
      if (name.startsWith('.')) return false;
      return !rules.ignores(isDir ? `${rel}/` : rel);
    },
    (rel) => {
      if (rel === files.layout.configFile) {
        files.config = rel;
        return;
      }
      if ((MINTLIFY_CONFIG_FILES as readonly string[]).includes(rel)) return; // the other settings file: not served
      if (CONTENT_FILE.test(rel)) {
        if (MODULE_QUERY.test(rel)) files.refused.push({ file: rel, reason: 'name' });
        else (rel.startsWith(snippetsPrefix) ? files.snippets : files.pages).push(rel);
        return;
      }
      // The snippets folder is never served (components' sources live there), nor build settings.
      if (rel.startsWith(snippetsPrefix) || NOT_SERVED.has(rel)) return;
      if (SCRIPTABLE_DOCUMENT.test(rel)) files.skipped.push({ file: rel, reason: 'not served: an HTML or XML file would run its scripts as the site' });
      else files.assets.push(rel);
    },
    files,
  );
}

/**
 * Whether a file of the Mintlify repository at `root` (`rel`, relative to it) is a page there, by
 * the rules the walk above applies (for the pages API, which looks up one path at a time).
 */
export function mintlifyPageFilter(root: string, layout: ContentLayout = contentLayout(root)): (rel: string) => boolean {
  const rules = mintlifyIgnore(root);
  const snippetsPrefix = `${layout.snippetsDir}/`;
  return (rel) => {
    if (!CONTENT_FILE.test(rel) || MODULE_QUERY.test(rel) || rel.startsWith(snippetsPrefix)) return false;
    const parts = rel.split('/');
    if (parts.some((part) => part.startsWith('.'))) return false;
    // As the walk: each folder on the way, then the file itself.
    for (let i = 1; i < parts.length; i++) if (rules.ignores(`${parts.slice(0, i).join('/')}/`)) return false;
    return !rules.ignores(rel);
  };
}

/**
 * Walks `dir` without following links: `enter(rel, name, isDir)` says whether to go on with an
 * entry, `file(rel)` gets each regular file; links and special files are refused. Yields each folder
 * to read and is given its entries.
 */
function* walk(dir: string, enter: (rel: string, name: string, isDir: boolean) => boolean, file: (rel: string) => void, files: RootFiles): Generator<string, void, fs.Dirent[]> {
  const entries = (yield dir).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    // Dirent types have lstat semantics: a symlink is reported as a symlink, never followed.
    if (!enter(rel, entry.name, entry.isDirectory())) continue;
    if (entry.isDirectory()) yield* walk(rel, enter, file, files);
    else if (entry.isFile()) file(rel);
    else files.refused.push({ file: rel, reason: entry.isSymbolicLink() ? 'symlink' : 'special' });
  }
}

/** The page path of a page file (`content/guides/install.mdx` → `guides/install`). */
export function pagePathOf(file: string, layout: ContentLayout): string {
  const rel = layout.pagesDir ? file.slice(layout.pagesDir.length + 1) : file;
  return rel.replace(/\.mdx?$/, '');
}

/** The page file of a page path as a message names it (`content/guides/install.mdx`, `guides/install.mdx`). */
export function pageFileOf(pagePath: string, layout: ContentLayout): string {
  return layout.pagesDir ? `${layout.pagesDir}/${pagePath}.mdx` : `${pagePath}.mdx`;
}

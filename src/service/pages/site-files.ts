// The site files of a project besides its pages (docs/decisions.md#site-files-api): its docs.json
// and its snippets (`_snippets/`), read and written through the API so a project without a
// repository can have a name, colours, navigation and snippets. Writes are validated as a build
// validates them (the docs.json schema, the content check of a snippet), atomic, and refused for
// projects connected to a repository (their files change only through a sync).
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import type { Config } from '../config.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { asStorageError, FolioError } from '../errors.ts';
import { localContent, type ProjectContent } from '../project-content.ts';
import { contentRootDir } from '../project-files.ts';
import { codeAllowed, type Project, type ProjectsService } from '../projects.ts';
import { analyzeIsolated, ContentTooComplexError, parseSiteFileIsolated } from '../../site/content-check/check-pool.ts';
import { checkSnippetCalls } from '../../site/content-check/snippet-calls.ts';
import { formatProblem } from '../../site/content-check/check-content.ts';
import { DocsConfigError, formatConfigIssue, type DocsConfig } from '../../site/config/docs-config.ts';
import { SITE_CONFIG_FILES, type SiteConfigFile } from '../../site/config/site-config-file.ts';
import { MAX_SITE_FILE_CHARS } from '../../site/config/config-values.ts';
import { navigationEntries } from '../../site/navigation.ts';
import { SNIPPETS_DIR } from '../../site/snippet-paths.ts';
import { updatedAt } from './catalog.ts';
import { foldersAreReal, makeFolders, readPageText, removeEmptyFolders, removeFile } from './files.ts';
import { createLocks, createWriteTracker } from './locks.ts';
import { writableProject } from './service.ts';

export const MAX_SNIPPETS_PER_PROJECT = 1000;
const SNIPPET_SEGMENT = /^[a-z0-9][a-z0-9_-]*$/;
const SNIPPET_FILE = /^[a-z0-9][a-z0-9_-]*\.mdx?$/;

/** The project's docs.json (or, for a repository project, its mint.json) as the API shows it. */
export interface DocsJsonView {
  path: SiteConfigFile;
  /** The file's JSON, as written. */
  content: Record<string, unknown>;
  /** Keys Folio ignores, and navigation entries that name no page yet: `docs.json:3:5: api: …`. */
  warnings: string[];
  source: 'repository' | 'api';
  updated_at: string;
}

export interface SnippetView {
  /** Path relative to `_snippets/`, as pages name it in `<Snippet file>`: `intro.mdx`, `api/auth.mdx`. */
  path: string;
  content?: string;
  source: 'repository' | 'api';
  updated_at: string;
}

export interface SiteFilesService {
  getDocsJson(orgId: string, projectId: string): Promise<DocsJsonView>;
  /** Creates or replaces docs.json; `created` tells which. */
  putDocsJson(orgId: string, projectId: string, content: unknown): Promise<{ view: DocsJsonView; created: boolean }>;
  deleteDocsJson(orgId: string, projectId: string): Promise<void>;
  listSnippets(orgId: string, projectId: string): Promise<{ data: SnippetView[] }>;
  getSnippet(orgId: string, projectId: string, snippetPath: string): Promise<SnippetView>;
  putSnippet(orgId: string, projectId: string, snippetPath: string, content: string): Promise<{ view: SnippetView; created: boolean }>;
  deleteSnippet(orgId: string, projectId: string, snippetPath: string): Promise<void>;
  /** After a project left the store: waits for its writes in flight (so none recreates its files). */
  forgetProject(projectId: string): Promise<void>;
}

/** Why `snippetPath` cannot name a snippet the API writes (lower-case segments, ending .mdx or .md). */
export function snippetPathProblem(snippetPath: string): string | undefined {
  if (snippetPath.length === 0 || snippetPath.length > 200) return 'path must be 1 to 200 characters';
  const segments = snippetPath.split('/');
  if (segments.length > 8) return 'path must have at most 8 segments';
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (last ? !SNIPPET_FILE.test(segment) : !SNIPPET_SEGMENT.test(segment)) {
      return last
        ? `path must end in a file name of lower-case letters, digits, "-" or "_" with the extension .mdx or .md (such as "intro.mdx"), not "${segment}"`
        : `path segment "${segment}" must be lower-case letters, digits, "-" or "_", starting with a letter or digit`;
    }
  }
  return undefined;
}

type CheckedSiteFile = Awaited<ReturnType<typeof parseSiteFileIsolated>>;

const source = (project: Project) => (project.source_repo ? 'repository' : 'api');

export function createSiteFilesService(config: Config, projects: ProjectsService, projectContent: ProjectContent = localContent): SiteFilesService {
  const locks = createLocks();
  const rootOf = (projectId: string) => contentRootDir(config.dataDir, projectId);
  const snippetsOf = (projectId: string) => path.join(rootOf(projectId), SNIPPETS_DIR);
  // Writes in flight per project, so a project's files are removed only after its last write.
  const writes = createWriteTracker();

  /** The regular file `rel` under `dir`, reached without a link, or undefined. */
  const regularFile = async (dir: string, rel: string) => {
    if (!(await foldersAreReal(dir, rel))) return undefined;
    const abs = path.join(dir, rel);
    const stat = await lstat(abs).catch(() => undefined);
    return stat?.isFile() ? abs : undefined;
  };

  const readText = async (abs: string | undefined, missing: () => FolioError) => {
    if (!abs) throw missing();
    return readPageText(abs).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ELOOP') throw missing();
      throw err;
    });
  };

  /** Navigation entries of docs.json that name no page of the project (the build leaves them out, with a warning). */
  const missingPages = async (project: Project, parsed: DocsConfig, file: SiteConfigFile): Promise<string[]> => {
    if (!parsed.navigation) return [];
    const files = await fg('**/*.{md,mdx}', { cwd: path.join(rootOf(project.id), 'content'), onlyFiles: true, followSymbolicLinks: false });
    const pages = new Set(files.map((f) => f.replace(/\.mdx?$/, '')));
    return navigationEntries(parsed.navigation)
      .filter(({ entry }) => {
        const p = entry.replace(/^\/+|\/+$/g, '') || 'index';
        return !pages.has(p) && !pages.has(`${p}/index`) && !p.startsWith('api-reference/');
      })
      .map(({ key, entry }) => `${file}: ${key}: no page "${entry}" yet: it is left out of the navigation until it exists`);
  };

  /** `checked`: the file's check when the caller has it (a write), else it is checked here. */
  const docsJsonView = async (project: Project, file: SiteConfigFile, text: string, mtimeMs: number, checked?: CheckedSiteFile): Promise<DocsJsonView> => {
    let warnings: string[];
    try {
      // Parsed once, in a check process: a repository's docs.json and the files it references may
      // take the schema seconds (docs/decisions.md, "docs.json in the check processes").
      const parsed = checked ?? (await parseSiteFileIsolated(file, text, rootOf(project.id)));
      warnings = [...parsed.warnings.map(formatConfigIssue), ...(await missingPages(project, parsed.config, file))];
    } catch (error) {
      // A repository's file may be invalid: shown as it is, its problems as warnings (its deployment fails).
      if (error instanceof ContentTooComplexError) warnings = [formatConfigIssue({ file, key: '(top level)', line: 1, column: 1, message: error.reason })];
      else if (!(error instanceof DocsConfigError)) throw error;
      else warnings = error.issues.map(formatConfigIssue);
    }
    let content: Record<string, unknown>;
    try {
      // A file too large to read is shown empty, as one that is not JSON is (its warning says why).
      content = text.length > MAX_SITE_FILE_CHARS ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      content = {};
    }
    return { path: file, content, warnings, source: source(project), updated_at: updatedAt(mtimeMs) };
  };

  const checkedSnippetPath = (snippetPath: string, forWrite: boolean) => {
    const problem = forWrite ? snippetPathProblem(snippetPath) : readableProblem(snippetPath);
    if (problem) throw new FolioError('invalid_request', problem);
    return snippetPath;
  };

  const snippetNotFound = (p: string) => new FolioError('not_found', `snippet "${p}" not found`);

  /** The project, for a read, with this node's copy of its files up to date (project-content.ts). */
  const readable = async (orgId: string, projectId: string): Promise<Project> => {
    const project = await projects.get(orgId, projectId);
    if (!project.source_repo) await projectContent.pull(project.id);
    return project;
  };

  return {
    async getDocsJson(orgId, projectId) {
      const project = await readable(orgId, projectId);
      for (const file of SITE_CONFIG_FILES) {
        const abs = await regularFile(rootOf(project.id), file);
        if (!abs) continue;
        const { text, mtimeMs } = await readText(abs, () => new FolioError('not_found', 'this project has no docs.json'));
        return docsJsonView(project, file, text, mtimeMs);
      }
      throw new FolioError('not_found', 'this project has no docs.json: create it with PUT');
    },

    listSnippets,
    getSnippet,

    putDocsJson(orgId, projectId, content) {
      return writes.track(projectId, putDocsJson(orgId, projectId, content));
    },

    deleteDocsJson(orgId, projectId) {
      return writes.track(projectId, deleteDocsJson(orgId, projectId));
    },

    putSnippet(orgId, projectId, snippetPath, content) {
      return writes.track(projectId, putSnippet(orgId, projectId, snippetPath, content));
    },

    deleteSnippet(orgId, projectId, snippetPath) {
      return writes.track(projectId, deleteSnippet(orgId, projectId, snippetPath));
    },

    async forgetProject(projectId) {
      await writes.settled(projectId);
    },
  };

  async function putDocsJson(orgId: string, projectId: string, content: unknown): Promise<{ view: DocsJsonView; created: boolean }> {
    const project = await writableProject(projects, orgId, projectId, 'site files');
    // Stored as sent, two-space indented, so positions in messages match the stored file.
    const text = `${JSON.stringify(content, null, 2)}\n`;
    let checked: CheckedSiteFile;
    try {
      checked = await parseSiteFileIsolated('docs.json', text, rootOf(project.id));
    } catch (error) {
      if (error instanceof ContentTooComplexError) throw new FolioError('content_too_complex', error.message);
      if (!(error instanceof DocsConfigError)) throw error;
      const listed = error.issues.slice(0, 10).map(formatConfigIssue).join('; ');
      throw new FolioError('invalid_request', error.issues.length === 1 ? listed : `docs.json has ${error.issues.length} problems: ${listed}`);
    }
    return locks.run(`docs-json:${project.id}`, () => projectContent.change(project.id, async (touched) => {
      const root = rootOf(project.id);
      await makeFolders(root, 'docs.json');
      const existing = await lstat(path.join(root, 'docs.json')).catch(() => undefined);
      if (existing && !existing.isFile()) throw new FolioError('invalid_request', 'docs.json is not a regular file in this project: it cannot be replaced');
      await writeFileAtomic(path.join(root, 'docs.json'), text).catch((err) => {
        throw asStorageError(err, 'docs.json');
      });
      touched(path.join(root, 'docs.json'));
      const { mtimeMs } = await readPageText(path.join(root, 'docs.json'));
      return { view: await docsJsonView(project, 'docs.json', text, mtimeMs, checked), created: !existing };
    }));
  }

  async function deleteDocsJson(orgId: string, projectId: string): Promise<void> {
    const project = await writableProject(projects, orgId, projectId, 'site files');
    await locks.run(`docs-json:${project.id}`, () => projectContent.change(project.id, async (touched) => {
      const abs = await regularFile(rootOf(project.id), 'docs.json');
      if (!abs) throw new FolioError('not_found', 'this project has no docs.json');
      await removeFile(abs);
      touched(abs);
    }));
  }

  async function listSnippets(orgId: string, projectId: string): Promise<{ data: SnippetView[] }> {
    const project = await readable(orgId, projectId);
    const dir = snippetsOf(project.id);
    const entries = await fg('**/*.{md,mdx}', { cwd: dir, onlyFiles: true, followSymbolicLinks: false, stats: true }).catch(() => []);
    const data = entries
      .map((e) => ({ path: e.path, source: source(project), updated_at: updatedAt(e.stats!.mtimeMs) }) satisfies SnippetView)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { data };
  }

  async function getSnippet(orgId: string, projectId: string, snippetPath: string): Promise<SnippetView> {
    const project = await readable(orgId, projectId);
    checkedSnippetPath(snippetPath, false);
    const abs = await regularFile(snippetsOf(project.id), snippetPath);
    const { text, mtimeMs } = await readText(abs, () => snippetNotFound(snippetPath));
    return { path: snippetPath, content: text, source: source(project), updated_at: updatedAt(mtimeMs) };
  }

  async function putSnippet(orgId: string, projectId: string, snippetPath: string, text: string): Promise<{ view: SnippetView; created: boolean }> {
    const project = await writableProject(projects, orgId, projectId, 'site files');
    checkedSnippetPath(snippetPath, true);
    await projectContent.pull(project.id); // the snippets a new one may include
    const dir = snippetsOf(project.id);
    const known = new Set(await fg('**/*.{md,mdx}', { cwd: dir, onlyFiles: true, followSymbolicLinks: false }).catch(() => [] as string[]));
    await checkSnippet(text, snippetPath, known, codeAllowed(project, config));
    return locks.run(`snippet:${project.id}:${snippetPath}`, () => projectContent.change(project.id, async (touched) => {
      const existing = await regularFile(dir, snippetPath);
      if (!existing && known.size >= MAX_SNIPPETS_PER_PROJECT) {
        throw new FolioError('invalid_request', `a project has at most ${MAX_SNIPPETS_PER_PROJECT} snippets: delete one before creating another`);
      }
      const abs = path.join(dir, snippetPath);
      try {
        await makeFolders(rootOf(project.id), `${SNIPPETS_DIR}/${snippetPath}`);
        await writeFileAtomic(abs, text);
        touched(abs);
      } catch (err) {
        if (!existing) await removeEmptyFolders(rootOf(project.id), `${SNIPPETS_DIR}/${snippetPath}`).catch(() => {});
        throw asStorageError(err, `snippet "${snippetPath}"`);
      }
      const { mtimeMs } = await readPageText(abs);
      return { view: { path: snippetPath, content: text, source: source(project), updated_at: updatedAt(mtimeMs) }, created: !existing };
    }));
  }

  async function deleteSnippet(orgId: string, projectId: string, snippetPath: string): Promise<void> {
    const project = await writableProject(projects, orgId, projectId, 'site files');
    checkedSnippetPath(snippetPath, false);
    await locks.run(`snippet:${project.id}:${snippetPath}`, () => projectContent.change(project.id, async (touched) => {
      const abs = await regularFile(snippetsOf(project.id), snippetPath);
      if (!abs) throw snippetNotFound(snippetPath);
      await removeFile(abs);
      touched(abs);
      // The folder `_snippets/` itself may go too: an empty one is the same as none.
      await removeEmptyFolders(rootOf(project.id), `${SNIPPETS_DIR}/${snippetPath}`);
    }));
  }
}

/** Safety rules for a snippet path the API reads: nothing may resolve outside `_snippets/`. */
function readableProblem(p: string): string | undefined {
  if (p.length === 0 || p.length > 1024) return 'path must be 1 to 1024 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(p)) return 'path must not contain control characters or "\\"';
  for (const segment of p.split('/')) {
    if (segment === '' || segment === '.' || segment === '..' || segment.startsWith('.')) return 'path must not contain empty, "." or ".." segments or segments starting with "."';
  }
  if (!/\.mdx?$/.test(p)) return 'path must end with .mdx or .md';
  return undefined;
}

/**
 * The build's check of a snippet file: the content check, and its `<Snippet file>` calls against
 * the project's snippets (a snippet may not include itself). 400 naming `content:line:col`.
 */
async function checkSnippet(content: string, snippetPath: string, known: ReadonlySet<string>, allowCode: boolean): Promise<void> {
  let analysis;
  try {
    analysis = await analyzeIsolated(content, { file: 'content', kind: 'snippet', format: snippetPath.endsWith('.md') ? 'md' : 'mdx', frontmatter: true, allowCode });
  } catch (error) {
    if (!(error instanceof ContentTooComplexError)) throw error;
    throw new FolioError('content_too_complex', `snippet "${snippetPath}": content is ${error.reason}`);
  }
  const problems = [...analysis.problems, ...checkSnippetCalls('content', analysis.snippetCalls, new Set([...known].filter((k) => k !== snippetPath)))];
  if (problems.length === 0) return;
  const listed = problems.map(formatProblem).join('; ');
  throw new FolioError('invalid_request', problems.length === 1 ? listed : `content has ${problems.length} problems: ${listed}`);
}

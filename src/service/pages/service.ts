// Pages (docs/decisions.md#pages): the domain operations behind the /v1/projects/{id}/pages endpoints. A page
// is an `.md`/`.mdx` file under `content/` of the project's content root (project-files.ts).
import path from 'node:path';
import type { Config } from '../config.ts';
import { asStorageError, FolioError } from '../errors.ts';
import { localContent, type ProjectContent } from '../project-content.ts';
import { contentRootDir } from '../project-files.ts';
import { contentLayout, mintlifyPageFilter } from '../../site/layout.ts';
import { codeAllowed, type Project, type ProjectsService } from '../projects.ts';
import { createPageCatalog, positionOf, updatedAt, type ListedPage } from './catalog.ts';
import { checkPageContent } from './content-check.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { editFrontmatter, findPageFile, makeFolders, pageFileText, parsePage, readPageText, removeEmptyFolders, removeFile, summaryOf, type ParsedPage } from './files.ts';
import { createLocks, createWriteTracker } from './locks.ts';
import { pageAddress, pagePathProblem, sameAddressPath } from './paths.ts';
import type { CreatePageInput, UpdatePageInput } from './rules.ts';

export const MAX_PAGES_PER_PROJECT = 10_000;

/** A page as the API shows it; `content` only in get, create and update answers. */
export interface Page {
  path: string;
  title: string;
  description?: string;
  content?: string;
  source: 'repository' | 'api';
  url: string;
  updated_at: string;
  /** Single pages: the frontmatter keys the site reads besides title and description, when the page has any. */
  frontmatter?: Record<string, unknown>;
}

export interface PageList {
  data: Page[];
  next_cursor: string | null;
}

export interface PagesService {
  list(orgId: string, projectId: string, limit: number, cursor?: string): Promise<PageList>;
  get(orgId: string, projectId: string, pagePath: string): Promise<Page>;
  create(orgId: string, projectId: string, input: CreatePageInput): Promise<Page>;
  update(orgId: string, projectId: string, pagePath: string, input: UpdatePageInput): Promise<Page>;
  delete(orgId: string, projectId: string, pagePath: string): Promise<void>;
  /** After a project left the store: waits for its page writes in flight, then drops what is cached of it. */
  forgetProject(projectId: string): Promise<void>;
}

/**
 * The project, for a write of its content root (`what`: "pages", "docs.json", "snippets"): the
 * files of a project connected to a repository change only through a sync.
 */
export async function writableProject(projects: ProjectsService, orgId: string, projectId: string, what: string): Promise<Project> {
  const project = await projects.get(orgId, projectId);
  if (project.source_repo) {
    throw new FolioError(
      'source_managed',
      `${what} of a project connected to a repository are read-only; change them in ${project.source_repo} (or disconnect it with PATCH source_repo null)`,
    );
  }
  return project;
}

function encodePathCursor(pagePath: string): string {
  return Buffer.from(`page:${pagePath}`).toString('base64url');
}

function decodePathCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const pagePath = text.startsWith('page:') ? text.slice('page:'.length) : '';
  if (pagePathProblem(pagePath)) throw new FolioError('invalid_request', 'cursor is not valid: pass the next_cursor of a previous page');
  return pagePath;
}

function checkedPath(pagePath: string): string {
  const problem = pagePathProblem(pagePath);
  if (problem) throw new FolioError('invalid_request', problem);
  return pagePath;
}

const notFound = (pagePath: string) => new FolioError('not_found', `page "${pagePath}" not found`);

const formatOf = (file: string): 'md' | 'mdx' => (file.endsWith('.md') ? 'md' : 'mdx');

export function createPagesService(config: Config, projects: ProjectsService, projectContent: ProjectContent = localContent): PagesService {
  const catalog = createPageCatalog();
  const locks = createLocks();
  const rootOf = (projectId: string) => contentRootDir(config.dataDir, projectId);
  const contentOf = (projectId: string) => pagesOf(projectId).dir;
  /**
   * Where the project's pages are, as its site build sees them: `content/` in Folio's layout; the
   * whole content root in Mintlify's (docs.json at the top and no content/), less what is not a page
   * there (snippets/, dot folders, Mintlify's ignored files and .mintignore).
   */
  const pagesOf = (projectId: string): { dir: string; isPage?: (file: string) => boolean } => {
    const root = rootOf(projectId);
    const layout = contentLayout(root);
    return layout.kind === 'mintlify' ? { dir: root, isPage: mintlifyPageFilter(root, layout) } : { dir: path.join(root, 'content') };
  };
  // Writes in flight per project, so a project's files are removed only after its last write.
  const writes = createWriteTracker();

  /** A page file as messages name it, relative to the content root. */
  const fileOf = (projectId: string, file: string) => path.relative(rootOf(projectId), path.join(contentOf(projectId), file)).split(path.sep).join('/');

  /** A page as answered: `page` carries what lists show, `content` is added for single pages. */
  const view = (project: Project, page: Omit<ListedPage, 'file'>, content?: string, frontmatter?: Record<string, unknown>): Page => {
    const result: Page = { path: page.path, title: page.title } as Page;
    if (page.description !== undefined) result.description = page.description;
    if (content !== undefined) result.content = content;
    result.source = project.source_repo ? 'repository' : 'api';
    result.url = project.url + page.address;
    result.updated_at = page.updated_at;
    if (frontmatter) result.frontmatter = frontmatter;
    return result;
  };

  const single = (project: Project, page: { path: string; title: string; description?: string; frontmatter?: Record<string, unknown>; mtimeMs: number }, content: string): Page => {
    const { path: pagePath, title, description } = page;
    const summary = description === undefined ? { path: pagePath, title } : { path: pagePath, title, description };
    return view(project, { ...summary, address: pageAddress(pagePath), updated_at: updatedAt(page.mtimeMs) }, content, page.frontmatter);
  };

  /** The project, for a write: a repository's pages change only through a sync. */
  const writable = (orgId: string, projectId: string): Promise<Project> => writableProject(projects, orgId, projectId, 'pages');

  /** The project, for a read, with this node's copy of its pages up to date (project-content.ts). */
  const readable = async (orgId: string, projectId: string): Promise<Project> => {
    const project = await projects.get(orgId, projectId);
    if (!project.source_repo) await projectContent.pull(project.id);
    return project;
  };

  /** Reads a page fresh from disk (and warms the list's cache with it). */
  const read = async (project: Project, pagePath: string) => {
    const { dir, isPage } = pagesOf(project.id);
    const found = await findPageFile(dir, pagePath);
    if (!found || (isPage && !isPage(found.file))) throw notFound(pagePath);
    const { text, mtimeMs, size } = await readPageText(found.abs).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ELOOP') throw notFound(pagePath);
      throw err;
    });
    const parsed = parsePage(text, pagePath);
    catalog.remember(found.abs, mtimeMs, size, summaryOf(parsed));
    return { ...found, ...parsed, path: pagePath, mtimeMs };
  };

  /** Tells the catalog of a write and answers with the page as written. */
  const written = async (project: Project, file: string, parsed: ParsedPage, content: string) => {
    return view(project, await catalog.written(contentOf(project.id), file, summaryOf(parsed)), content, parsed.frontmatter);
  };

  return {
    async list(orgId, projectId, limit, cursor) {
      const project = await readable(orgId, projectId);
      const after = cursor === undefined ? undefined : decodePathCursor(cursor);
      const { dir, isPage } = pagesOf(project.id);
      const pages = await catalog.list(dir, isPage);
      let start = after === undefined ? 0 : positionOf(pages, after);
      if (after !== undefined && pages[start]?.path === after) start++;
      const slice = pages.slice(start, start + limit);
      const more = start + limit < pages.length;
      return { data: slice.map((p) => view(project, p)), next_cursor: more ? encodePathCursor(slice.at(-1)!.path) : null };
    },

    async get(orgId, projectId, pagePath) {
      const project = await readable(orgId, projectId);
      const page = await read(project, checkedPath(pagePath));
      return single(project, page, page.body);
    },

    create(orgId, projectId, input) {
      return writes.track(projectId, create(orgId, projectId, input));
    },

    update(orgId, projectId, pagePath, input) {
      return writes.track(projectId, update(orgId, projectId, pagePath, input));
    },

    delete(orgId, projectId, pagePath) {
      return writes.track(projectId, remove(orgId, projectId, pagePath));
    },

    async forgetProject(projectId) {
      await writes.settled(projectId);
      // The root too: in Mintlify's layout the pages were listed from it (and the layout is gone with the files).
      catalog.forget(rootOf(projectId));
    },
  };

  async function create(orgId: string, projectId: string, input: CreatePageInput): Promise<Page> {
    const project = await writable(orgId, projectId);
    await projectContent.pull(project.id); // the layout below is read from the copy
    const { dir: contentDir, isPage } = pagesOf(project.id);
    if (isPage && !isPage(`${input.path}.mdx`)) {
      throw new FolioError('invalid_request', `path: "${input.path}" is not a page in this project's Mintlify layout (snippets/ and the files Mintlify ignores are not pages): choose another path`);
    }
    await checkPageContent(input.content, 'mdx', rootOf(project.id), true, { path: input.path, allowCode: codeAllowed(project, config) }); // title makes a frontmatter block
    // One create at a time per project (on every node): the page limit and the address checks stay exact.
    return locks.run(`create:${project.id}`, () => projectContent.change(project.id, async (touched) => {
      const count = (await catalog.list(contentDir, isPage)).length;
      if (count >= MAX_PAGES_PER_PROJECT) {
        throw new FolioError('invalid_request', `a project has at most ${MAX_PAGES_PER_PROJECT} pages: delete a page before creating another`);
      }
      const existing = await findPageFile(contentDir, input.path);
      if (existing) throw new FolioError('page_exists', `page "${input.path}" already exists (${fileOf(project.id, existing.file)})`);
      const twin = sameAddressPath(input.path);
      const other = twin === undefined ? undefined : await findPageFile(contentDir, twin);
      if (other) {
        throw new FolioError('page_exists', `page "${twin}" (${fileOf(project.id, other.file)}) is already served at the address of "${input.path}"`);
      }
      const file = `${input.path}.mdx`;
      const text = pageFileText(editFrontmatter(undefined, { title: input.title, description: input.description, frontmatter: input.frontmatter }), input.content);
      try {
        await makeFolders(contentDir, file);
        await writeFileAtomic(path.join(contentDir, file), text, { exclusive: true });
        touched(path.join(contentDir, file));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new FolioError('page_exists', `page "${input.path}" already exists`);
        // Nothing of a failed create stays: not even the folders made for it.
        await removeEmptyFolders(contentDir, file).catch(() => {});
        throw asStorageError(err, `page "${input.path}"`);
      }
      return written(project, file, parsePage(text, input.path), input.content);
    }));
  }

  async function update(orgId: string, projectId: string, pagePath: string, input: UpdatePageInput): Promise<Page> {
    const project = await writable(orgId, projectId);
    checkedPath(pagePath);
    // Read-modify-write under the page's lock, so concurrent updates never lose each other.
    return locks.run(`page:${project.id}:${pagePath}`, () => projectContent.change(project.id, async (touched) => {
      const page = await read(project, pagePath);
      if (input.title === undefined && input.description === undefined && input.content === undefined && input.frontmatter === undefined) {
        return single(project, page, page.body);
      }
      const yaml = input.title !== undefined || input.description !== undefined || input.frontmatter !== undefined
        ? editFrontmatter(page.yaml, { title: input.title, description: input.description, frontmatter: input.frontmatter })
        : (page.yaml ?? '').replace(/^\r?\n/, '');
      const body = input.content ?? page.body;
      const text = pageFileText(yaml, body);
      if (input.content !== undefined) await checkPageContent(input.content, formatOf(page.file), rootOf(project.id), text !== body, { path: pagePath, allowCode: codeAllowed(project, config) });
      await writeFileAtomic(page.abs, text).catch((err) => {
        throw asStorageError(err, `the change to page "${pagePath}"`);
      });
      touched(page.abs);
      return written(project, page.file, parsePage(text, pagePath), body);
    }));
  }

  async function remove(orgId: string, projectId: string, pagePath: string): Promise<void> {
    const project = await writable(orgId, projectId);
    checkedPath(pagePath);
    await locks.run(`page:${project.id}:${pagePath}`, () => projectContent.change(project.id, async (touched) => {
      const { dir, isPage } = pagesOf(project.id);
      const found = await findPageFile(dir, pagePath);
      if (!found || (isPage && !isPage(found.file))) throw notFound(pagePath);
      await removeFile(found.abs);
      touched(found.abs);
      catalog.removed(contentOf(project.id));
    }));
    // Under the create lock: a create's folder is never removed between its mkdir and its file.
    await locks.run(`create:${project.id}`, () => removeEmptyFolders(contentOf(project.id), `${pagePath}.mdx`));
  }
}

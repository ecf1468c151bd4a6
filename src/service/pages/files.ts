// Page files on disk: finding one without following links, reading and splitting frontmatter,
// resolving titles as the site does, editing frontmatter, creating and removing folders.
import { constants } from 'node:fs';
import { lstat, mkdir, open, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { load as loadYaml } from 'js-yaml';
import { parseDocument } from 'yaml';
import { syncDir } from '../atomic-write.ts';
import { FolioError } from '../errors.ts';
import { pageTitle } from '../../site/page-rules.ts';
import { pageFileCandidates } from './paths.ts';

/** A page file found under `content/`. */
export interface PageFile {
  /** Path relative to `content/`, with its extension (`guides/install.mdx`). */
  file: string;
  abs: string;
}

export interface PageText {
  text: string;
  mtimeMs: number;
  size: number;
}

/** What a page's frontmatter and body say about it. */
export interface PageSummary {
  title: string;
  description?: string;
}

export interface ParsedPage extends PageSummary {
  /** The body without frontmatter. */
  body: string;
  /** The raw YAML of the frontmatter block, or undefined when there is none. */
  yaml?: string;
}

/** lstat (a symbolic link is never a directory or a file here) that answers undefined for a missing entry. */
async function lstatOrUndefined(abs: string) {
  try {
    return await lstat(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** True when every folder from `contentDir` down to `rel`'s folder is a real directory (no links). */
async function foldersAreReal(contentDir: string, rel: string): Promise<boolean> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 0; i <= parts.length; i++) {
    const stat = await lstatOrUndefined(path.join(contentDir, ...parts.slice(0, i)));
    if (!stat?.isDirectory()) return false;
  }
  return true;
}

/** The regular file a (checked) page path names, `.mdx` before `.md`; symbolic links are never used. */
export async function findPageFile(contentDir: string, pagePath: string): Promise<PageFile | undefined> {
  if (!(await foldersAreReal(contentDir, pagePath))) return undefined;
  for (const file of pageFileCandidates(pagePath)) {
    const abs = path.join(contentDir, file);
    const stat = await lstatOrUndefined(abs);
    if (stat?.isFile()) return { file, abs };
  }
  return undefined;
}

/** Reads a page file, refusing a symbolic link that appeared since it was found. */
export async function readPageText(abs: string): Promise<PageText> {
  const handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`not a regular file: ${abs}`);
    return { text: await handle.readFile('utf8'), mtimeMs: stat.mtimeMs, size: stat.size };
  } finally {
    await handle.close();
  }
}

// A frontmatter block as the site build reads it: `---` alone on the first line, closed by `---`.
const FRONTMATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/;

const refuse = () => {
  throw new Error('only YAML frontmatter is read');
};
// gray-matter's defaults include a JavaScript engine that evals `---js` blocks: never offered.
// YAML is read by js-yaml 4, the reader of the site's checker and of Astro.
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: { yaml: { parse: (s: string) => loadYaml(s) as object, stringify: refuse }, javascript: refuse, json: refuse, coffee: refuse },
};

/**
 * Splits a page into frontmatter and body and resolves its title as the site does. Never throws:
 * frontmatter that is not valid YAML counts as empty here (the build and PATCH report it).
 */
export function parsePage(text: string, pagePath: string): ParsedPage {
  const block = FRONTMATTER.exec(text)?.[0];
  if (block === undefined) return { title: pageTitle(undefined, text, pagePath), body: text };
  let data: unknown;
  let body: string;
  let yaml: string;
  try {
    // Passing options also keeps gray-matter from caching every text it has seen.
    const parsed = matter(text, MATTER_OPTIONS as unknown as Parameters<typeof matter>[1]);
    ({ data, content: body, matter: yaml } = parsed);
  } catch {
    data = {};
    body = text.slice(block.length);
    yaml = block.replace(/^---[ \t]*\r?\n/, '').replace(/---[ \t]*(?:\r?\n)?$/, '');
  }
  const fields = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const page: ParsedPage = { title: pageTitle(fields.title, body, pagePath), body, yaml };
  if (typeof fields.description === 'string') page.description = fields.description;
  return page;
}

/** Just the title and description of a parsed page (what lists cache). */
export function summaryOf(page: PageSummary): PageSummary {
  return page.description === undefined ? { title: page.title } : { title: page.title, description: page.description };
}

/**
 * Frontmatter YAML with `title` and `description` set (`null` removes; undefined keeps), every
 * other key, comment and formatting kept as written. Throws 400 when the existing YAML is invalid.
 */
export function editFrontmatter(yaml: string | undefined, changes: { title?: string; description?: string | null }): string {
  const doc = parseDocument(yaml ?? '');
  if (doc.errors.length > 0) {
    throw new FolioError('invalid_request', `the page's frontmatter is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}): it cannot be edited through the API`);
  }
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (changes.title !== undefined) doc.set('title', changes.title);
  if (changes.description === null) doc.delete('description');
  else if (changes.description !== undefined) doc.set('description', changes.description);
  return doc.toString({ lineWidth: 0 });
}

/** A page file's full text: frontmatter block (when there is any YAML) then the body. */
export function pageFileText(yaml: string, body: string): string {
  const block = yaml.trim() === '' || yaml.trim() === '{}' ? '' : `---\n${yaml.endsWith('\n') ? yaml : `${yaml}\n`}---\n`;
  return block + body;
}

/** Creates the folders of `rel` under `contentDir`; an existing link or file on the way is refused. */
export async function makeFolders(contentDir: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 0; i <= parts.length; i++) {
    const dir = path.join(contentDir, ...parts.slice(0, i));
    const stat = await lstatOrUndefined(dir);
    if (stat && !stat.isDirectory()) {
      throw new FolioError('invalid_request', `path: ${parts.slice(0, i).join('/') || 'content'} is not a folder`);
    }
    if (!stat) {
      await mkdir(dir, { recursive: i === 0 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      await syncDir(path.dirname(dir));
    }
  }
}

/** Removes a page file durably. */
export async function removeFile(abs: string): Promise<void> {
  await unlink(abs);
  await syncDir(path.dirname(abs));
}

/**
 * Removes the folders of `rel` under `contentDir` that are empty, deepest first, stopping at the
 * first one that is not (a folder left behind by a deleted page would stay forever otherwise).
 * `content/` itself stays. Callers keep page creates out meanwhile (a folder just made for a new
 * page is empty until its file lands).
 */
export async function removeEmptyFolders(contentDir: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = parts.length; i > 0; i--) {
    const dir = path.join(contentDir, ...parts.slice(0, i));
    const removed = await rmdir(dir).then(() => true, (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOTEMPTY' || err.code === 'EEXIST' || err.code === 'ENOENT' || err.code === 'ENOTDIR') return false;
      throw err;
    });
    if (!removed) return;
    await syncDir(path.dirname(dir));
  }
}

// Broken links of a content root (`folio broken-links`, content/authoring/cli.mdx): links to pages
// that do not exist, `#anchors` no heading or element of their page defines, docs.json redirects
// that lead nowhere or loop, `<Snippet file>` calls and snippet imports naming no snippet, and
// (asked for) external links that fail. Pages are read as the build reads them (the content check's
// parser, check-content.ts); links are resolved as a reader's browser resolves them against the
// page's address (page-rules.ts), through the live site's redirect matcher (hosting/redirects.ts).
// Design: docs/decisions.md#broken-links.
import fs from 'node:fs/promises';
import path from 'node:path';
import Slugger from 'github-slugger';
import { compiledSource, parseAsBuilt, type Problem, type SnippetCall } from './content-check/check-content.ts';
import { checkSnippetCalls } from './content-check/check-root.ts';
import { listRootFilesAsync, pagePathOf, type RootFiles } from './layout.ts';
import { pageHref } from './page-rules.ts';
import { importedSnippetKey, snippetKey } from './snippet-paths.ts';
import { loadDocsConfigWithWarnings, type DocsConfig, type RedirectRule } from './docs-config.ts';
import { buildOperationPages, loadOpenApiPages } from './openapi/index.ts';
import { docsJsonSources, navigationSources, specLoader } from './openapi/sources.ts';
import type { Locate } from './config-values.ts';
import { redirectable, RedirectTable } from '../hosting/redirects.ts';

export interface BrokenLinkOptions {
  checkAnchors?: boolean;
  checkExternal?: boolean;
  /** External links requested at once (default 8). */
  concurrency?: number;
  /** How long one external link may take, in ms (default 10 s). */
  timeoutMs?: number;
}

export interface BrokenLinksReport {
  /** Every broken link, in file order. */
  broken: Problem[];
  /** Links looked at (internal, and external ones when checked). */
  checked: number;
  pages: number;
}

interface MdNode {
  type: string;
  url?: string;
  value?: string;
  name?: string | null;
  depth?: number;
  attributes?: Array<{ type: string; name?: string; value?: unknown }>;
  children?: MdNode[];
  position?: { start: { line: number; column: number } };
}

interface FoundLink {
  url: string;
  line: number;
  column: number;
}

interface ReadFile {
  file: string;
  links: FoundLink[];
  anchors: Set<string>;
  snippetCalls: SnippetCall[];
  imports: Array<FoundLink & { key?: string }>;
}

/** A site origin links are resolved against; never requested. */
const SITE = 'https://folio.invalid';
/** Attributes of MDX elements (`<Card href>`, `<a href>`) that are links. */
const LINK_ATTRIBUTES = new Set(['href']);
/** More redirects than any real chain has: past this, a chain is reported as a loop. */
const MAX_REDIRECTS = 20;
const IMPORT_SOURCE = /^\s*import\s[^'"]*?from\s*(['"])([^'"]+)\1|^\s*import\s*(['"])([^'"]+)\3/gm;

function textOf(node: MdNode): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

/** One page's or snippet's links, anchors and snippet uses; a file the parser refuses has none (`folio check` reports it). */
async function readContentFile(root: string, file: string, snippetsDir: string): Promise<ReadFile> {
  const found: ReadFile = { file, links: [], anchors: new Set(), snippetCalls: [], imports: [] };
  const text = await fs.readFile(path.join(root, file), 'utf8');
  const format = file.endsWith('.md') ? 'md' : 'mdx';
  const compiled = compiledSource(text, { file, kind: 'page' });
  if (!compiled) return found;
  let tree: MdNode;
  try {
    tree = parseAsBuilt(compiled.source, format) as unknown as MdNode;
  } catch {
    return found;
  }
  const { lines, firstColumns } = compiled.shift;
  const at = (node: MdNode) => {
    const start = node.position?.start ?? { line: 1, column: 1 };
    return { line: start.line + lines, column: start.column + (start.line === 1 ? firstColumns : 0) };
  };
  const slugger = new Slugger();
  // An explicit stack, not recursion: a deeply nested page cannot exhaust the call stack.
  const stack: MdNode[] = [tree];
  const order: MdNode[] = [];
  while (stack.length) {
    const node = stack.pop() as MdNode;
    order.push(node);
    for (let i = (node.children?.length ?? 0) - 1; i >= 0; i--) stack.push(node.children![i]);
  }
  for (const node of order) {
    if ((node.type === 'link' || node.type === 'definition') && node.url) found.links.push({ url: node.url, ...at(node) });
    else if (node.type === 'heading') found.anchors.add(slugger.slug(textOf(node)));
    else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of node.attributes ?? []) {
        if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') continue;
        if (attribute.name === 'id') found.anchors.add(attribute.value);
        else if (attribute.name && LINK_ATTRIBUTES.has(attribute.name)) found.links.push({ url: attribute.value, ...at(node) });
        // A Snippet with children shows them and reads no file (check-content.ts).
        else if (attribute.name === 'file' && node.name === 'Snippet' && !node.children?.length) found.snippetCalls.push({ file: attribute.value, key: snippetKey(attribute.value, snippetsDir), ...at(node) });
      }
    } else if (node.type === 'html' && node.value) {
      for (const match of node.value.matchAll(/\sid\s*=\s*["']([^"']+)["']/g)) found.anchors.add(match[1]);
    } else if (node.type === 'mdxjsEsm' && node.value) {
      for (const match of node.value.matchAll(IMPORT_SOURCE)) {
        const specifier = match[2] ?? match[4];
        if (/^\.{0,2}\//.test(specifier) && /\.mdx?$/.test(specifier)) found.imports.push({ url: specifier, key: importedSnippetKey(specifier, file, snippetsDir), ...at(node) });
      }
    }
  }
  return found;
}

/** Stands for the anchors of a page whose headings are not read (a generated OpenAPI page): every anchor is there. */
const ANY_ANCHOR: Set<string> = new (class extends Set<string> {
  override has(): boolean {
    return true;
  }
})();

/**
 * The paths of the pages a build generates from the OpenAPI files docs.json names (pages.ts, the
 * same path rules); none when a file cannot be read (`folio check` reports it).
 */
async function operationPages(root: string, config: DocsConfig): Promise<string[]> {
  const load = specLoader(root);
  const taken = new Set<string>();
  const paths: string[] = [];
  try {
    for (const source of docsJsonSources(config)) paths.push(...(await loadOpenApiPages(root, source.files, { prefix: source.directory }, load, taken)).pages.map((p) => p.path));
    for (const { source } of navigationSources(config)) {
      for (const file of source.files) {
        const { document, refNames, file: shown } = await load(file);
        paths.push(...buildOperationPages(document, refNames, { prefix: source.directory, file: shown }, taken).pages.map((p) => p.path));
      }
    }
  } catch {
    // An OpenAPI file that cannot be read fails `folio check`; its pages are then not known here.
  }
  return paths;
}

/** `/guides/install/` and `guides/install` alike become `guides/install`; the home page is ''. */
function pageKey(pathname: string): string {
  return pathname.replace(/^\/+|\/+$/g, '').replace(/(^|\/)index$/, '');
}

function decoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

interface Site {
  files: RootFiles;
  root: string;
  /** Page key → the page's anchors. */
  pages: Map<string, Set<string>>;
  redirects: RedirectTable;
}

type Target = { page: string } | { file: true } | { broken: string };

/** Where an internal path (`/guides/install`) leads: a page, a static file, or why nowhere. */
async function resolvePath(site: Site, start: string): Promise<Target> {
  const seen: string[] = [];
  let pathname = start;
  for (;;) {
    const key = pageKey(decoded(pathname));
    if (site.pages.has(key)) return { page: key };
    if (await isStaticFile(site, decoded(pathname))) return { file: true };
    const answer = redirectable(pathname) ? site.redirects.match(pathname, '') : undefined;
    if (!answer) return { broken: seen.length ? `redirected to ${pathname}, where there is no page or file` : 'no page or file has this address' };
    seen.push(pathname);
    const next = new URL(answer.location, `${SITE}${pathname}`);
    if (next.origin !== SITE) return { file: true };
    if (seen.includes(next.pathname) || seen.length > MAX_REDIRECTS) return { broken: `redirects in a loop: ${[...seen, next.pathname].join(' → ')}` };
    pathname = next.pathname;
  }
}

async function isStaticFile(site: Site, pathname: string): Promise<boolean> {
  const rel = path.posix.normalize(pathname.replace(/^\/+/, ''));
  if (!rel || rel === '.' || rel.startsWith('..')) return false;
  const { layout } = site.files;
  if (layout.kind === 'mintlify') return site.files.assets.includes(rel);
  if (!layout.publicDir) return false;
  // lstat, never stat: a link in public/ is refused by the check and leads nowhere here.
  return (await fs.lstat(path.join(site.root, layout.publicDir, rel)).catch(() => undefined))?.isFile() ?? false;
}

/** Checks every page and snippet of `root`; nothing of it is written or run. */
export async function findBrokenLinks(root: string, options: BrokenLinkOptions = {}): Promise<BrokenLinksReport> {
  const files = await listRootFilesAsync(root);
  const { layout } = files;
  let rules: RedirectRule[] = [];
  let locate: Locate | undefined;
  let generated: string[] = [];
  try {
    const parsed = loadDocsConfigWithWarnings(root);
    rules = parsed.config.redirects ?? [];
    locate = parsed.locate;
    generated = await operationPages(root, parsed.config);
  } catch {
    // An invalid docs.json is `folio check`'s to report; its redirects are then not checked.
  }
  const read: ReadFile[] = [];
  for (const file of [...files.pages, ...files.snippets]) read.push(await readContentFile(root, file, layout.snippetsDir));
  const site: Site = { files, root, pages: new Map(), redirects: new RedirectTable(rules) };
  const snippetAnchors = new Map(read.filter((r) => files.snippets.includes(r.file)).map((r) => [r.file.slice(layout.snippetsDir.length + 1), r.anchors]));
  for (const page of read.filter((r) => !files.snippets.includes(r.file))) {
    // A page shows the headings of the snippets it includes as its own.
    const anchors = new Set(page.anchors);
    for (const call of page.snippetCalls) for (const anchor of (call.key && snippetAnchors.get(call.key)) || []) anchors.add(anchor);
    site.pages.set(pageKey(pagePathOf(page.file, layout)), anchors);
  }
  // Anchors of generated pages are not known here: links to them are checked up to the page.
  for (const page of generated) if (!site.pages.has(pageKey(page))) site.pages.set(pageKey(page), ANY_ANCHOR);

  const broken: Problem[] = [];
  const external = new Map<string, Problem[]>();
  const known = new Set(snippetAnchors.keys());
  let checked = 0;
  for (const content of read) {
    const isSnippet = files.snippets.includes(content.file);
    const base = isSnippet ? `${SITE}/` : `${SITE}${pageHref(pagePathOf(content.file, layout))}`;
    broken.push(...checkSnippetCalls(content.file, content.snippetCalls, known, layout.snippetsDir));
    for (const imp of content.imports) {
      if (!imp.key || !known.has(imp.key)) broken.push({ file: content.file, line: imp.line, column: imp.column, message: `import "${imp.url}": no such snippet in ${layout.snippetsDir}/` });
    }
    for (const link of content.links) {
      const where = { file: content.file, line: link.line, column: link.column };
      if (/^(?:mailto|tel|javascript|data):/i.test(link.url)) continue;
      if (/^https?:\/\//i.test(link.url)) {
        external.set(link.url, [...(external.get(link.url) ?? []), { ...where, message: '' }]);
        continue;
      }
      // A snippet's relative links are resolved against each page that includes it: not checked here.
      if (isSnippet && !/^[/#]/.test(link.url)) continue;
      let url: URL;
      try {
        url = new URL(link.url, base);
      } catch {
        broken.push({ ...where, message: `link "${link.url}" is not a valid address` });
        continue;
      }
      if (url.origin !== SITE) continue;
      checked++;
      const target = await resolvePath(site, url.pathname);
      if ('broken' in target) {
        broken.push({ ...where, message: `link "${link.url}": ${target.broken}` });
        continue;
      }
      const anchor = decoded(url.hash.slice(1));
      if (options.checkAnchors && anchor && 'page' in target && !(isSnippet && link.url.startsWith('#')) && !site.pages.get(target.page)?.has(anchor)) {
        broken.push({ ...where, message: `link "${link.url}": no heading or element with id "${anchor}" on ${pageHref(target.page || 'index')}` });
      }
    }
  }
  const configFile = files.config ?? 'docs.json';
  const ruleAt = (index: number) => {
    const at = locate?.(['redirects', index]);
    return at ? { file: at.file, line: at.line, column: at.column } : { file: configFile, line: 1, column: 1 };
  };
  broken.push(...(await checkRedirects(site, rules, ruleAt)));
  if (options.checkExternal) {
    checked += external.size;
    broken.push(...(await checkExternal(external, options)));
  }
  // In file order, as an author goes through them.
  const order = new Map([...read.map((r) => r.file), configFile].map((file, i) => [file, i]));
  broken.sort((a, b) => (order.get(a.file) ?? order.size) - (order.get(b.file) ?? order.size) || a.line - b.line || a.column - b.column);
  return { broken, checked, pages: files.pages.length };
}

/** Each redirect with a fixed destination on the site must lead to a page or file, without a loop. */
async function checkRedirects(site: Site, rules: RedirectRule[], ruleAt: (index: number) => Omit<Problem, 'message'>): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const [index, rule] of rules.entries()) {
    // A destination with captures (`/new/:slug*`) depends on the request: only fixed ones are checked.
    if (/[:*]/.test(rule.destination)) continue;
    const destination = new URL(rule.destination, SITE);
    if (destination.origin !== SITE) continue;
    // Followed from the rule's own source when it is fixed, so a rule leading back to itself shows as a loop.
    const start = /[:*]/.test(rule.source) ? destination.pathname : rule.source;
    const target = await resolvePath(site, start);
    if ('broken' in target) problems.push({ ...ruleAt(index), message: `redirect ${rule.source} → ${rule.destination}: ${target.broken}` });
  }
  return problems;
}

/** Requests each external link once, a bounded number at a time, each within the timeout. */
async function checkExternal(links: Map<string, Problem[]>, options: BrokenLinkOptions): Promise<Problem[]> {
  const urls = [...links.keys()];
  const failures = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      const failure = await requestLink(url, options.timeoutMs ?? 10_000);
      if (failure) failures.set(url, failure);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, urls.length) }, worker));
  const problems: Problem[] = [];
  for (const [url, failure] of failures) {
    for (const use of links.get(url) ?? []) problems.push({ ...use, message: `link "${url}": ${failure}` });
  }
  return problems;
}

async function requestLink(url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'text/html,*/*' } });
    // Only the status matters: the body is never read.
    await response.body?.cancel();
    return response.status >= 400 ? `answered ${response.status}` : undefined;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`;
  }
}

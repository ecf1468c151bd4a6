// Broken links of a content root (`folio broken-links`, content/authoring/cli.mdx): links to pages
// that do not exist, `#anchors` no heading or element of their page defines, docs.json redirects
// that lead nowhere or loop, `<Snippet file>` calls and snippet imports naming no snippet, and
// (asked for) external links that fail. Pages are read as the build reads them (the content check's
// parser, check-content.ts); links are resolved as a reader's browser resolves them against the
// page's address (page-rules.ts), through the live site's redirect matcher (hosting/redirects.ts).
// Design: docs/decisions.md#broken-links.
import fs from 'node:fs/promises';
import path from 'node:path';
import { compiledSource, parseAsBuilt, type Problem } from './content-check/check-content.ts';
import { noLinks, pageLinks, type PageLinks } from './content-check/page-links.ts';
import { checkSnippetCalls } from './content-check/snippet-calls.ts';
import { listRootFilesAsync, pagePathOf, type RootFiles } from './layout.ts';
import { pageHref } from './page-rules.ts';
import { type RedirectRule } from './config/docs-config.ts';
import { loadDocsConfigWithWarnings } from './config/site-config-file.ts';
import { generatedPagePaths } from './openapi/index.ts';
import type { Locate } from './config/config-values.ts';
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

interface ReadFile extends PageLinks {
  file: string;
}

/** A site origin links are resolved against; never requested. */
const SITE = 'https://folio.invalid';
/** More redirects than any real chain has: past this, a chain is reported as a loop. */
const MAX_REDIRECTS = 20;

/** One page's or snippet's links, anchors and snippet uses; a file the parser refuses has none (`folio check` reports it). */
async function readContentFile(root: string, file: string, snippetsDir: string): Promise<ReadFile> {
  const text = await fs.readFile(path.join(root, file), 'utf8');
  const compiled = compiledSource(text, { file, kind: 'page' });
  if (!compiled) return { file, ...noLinks() };
  try {
    return { file, ...pageLinks(parseAsBuilt(compiled.source, file.endsWith('.md') ? 'md' : 'mdx'), compiled.shift, file, snippetsDir) };
  } catch {
    return { file, ...noLinks() };
  }
}

/** Stands for the anchors of a page whose headings are not read (a generated OpenAPI page): every anchor is there. */
const ANY_ANCHOR: Set<string> = new (class extends Set<string> {
  override has(): boolean {
    return true;
  }
})();

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
  /** Not every page is known: an address with no page is not reported (LinkedSite.pagesUnknown). */
  pagesUnknown: boolean;
}

type Target = { page: string } | { file: true } | { unknown: true } | { broken: string };

/** Where an internal path (`/guides/install`) leads: a page, a static file, or why nowhere. */
async function resolvePath(site: Site, start: string): Promise<Target> {
  const seen: string[] = [];
  let pathname = start;
  for (;;) {
    const key = pageKey(decoded(pathname));
    if (site.pages.has(key)) return { page: key };
    if (await isStaticFile(site, decoded(pathname))) return { file: true };
    const answer = redirectable(pathname) ? site.redirects.match(pathname, '') : undefined;
    if (!answer && site.pagesUnknown) return { unknown: true };
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
  let rules: RedirectRule[] = [];
  let locate: Locate | undefined;
  let generated: string[] = [];
  try {
    const parsed = loadDocsConfigWithWarnings(root);
    rules = parsed.config.redirects ?? [];
    locate = parsed.locate;
    // An OpenAPI file that cannot be read fails `folio check`; its pages are then not known here.
    generated = await generatedPagePaths(root, parsed.config).catch(() => []);
  } catch {
    // An invalid docs.json is `folio check`'s to report; its redirects are then not checked.
  }
  const contents: ReadFile[] = [];
  for (const file of [...files.pages, ...files.snippets]) contents.push(await readContentFile(root, file, files.layout.snippetsDir));
  const found = await findInternalBrokenLinks({ root, files, rules, locate, generated, contents }, options);
  const broken = found.broken;
  let checked = found.checked;
  if (options.checkExternal) {
    checked += found.external.size;
    broken.push(...(await checkExternal(found.external, options)));
  }
  return { broken: inFileOrder(broken, files, contents), checked, pages: files.pages.length };
}

export interface LinkedSite {
  root: string;
  files: RootFiles;
  /** docs.json's redirects, and where each is written. */
  rules: RedirectRule[];
  locate?: Locate;
  /** Paths of the pages generated from OpenAPI files. */
  generated: string[];
  /** The links of the pages and snippets that were read (page-links.ts). */
  contents: Array<PageLinks & { file: string }>;
  /**
   * Links to pages that do not exist are not reported: some pages are not known (a deployment's
   * check does not read the OpenAPI files its pages are generated from on the server).
   */
  pagesUnknown?: boolean;
}

/**
 * The broken internal links of a site whose pages were read (by `folio broken-links`, or by the
 * deployment's check in its check processes, check-root.ts): every page of `files` exists, and
 * one not among `contents` has any anchor. External links are returned to be checked, not checked.
 * Linear in the links (each redirect chain is bounded): it runs on the server's event loop.
 */
export async function findInternalBrokenLinks(linked: LinkedSite, options: Pick<BrokenLinkOptions, 'checkAnchors'> & { snippetUses?: boolean } = {}): Promise<{ broken: Problem[]; checked: number; external: Map<string, Problem[]> }> {
  const { root, files, rules, locate, generated, contents: read } = linked;
  const { layout } = files;
  const site: Site = { files, root, pages: new Map(), redirects: new RedirectTable(rules), pagesUnknown: linked.pagesUnknown ?? false };
  const snippetAnchors = new Map(read.filter((r) => files.snippets.includes(r.file)).map((r) => [r.file.slice(layout.snippetsDir.length + 1), r.anchors]));
  for (const page of read.filter((r) => !files.snippets.includes(r.file))) {
    // A page shows the headings of the snippets it includes as its own.
    const anchors = new Set(page.anchors);
    for (const call of page.snippetCalls) for (const anchor of (call.key && snippetAnchors.get(call.key)) || []) anchors.add(anchor);
    site.pages.set(pageKey(pagePathOf(page.file, layout)), anchors);
  }
  // Anchors of generated pages, and of pages not read, are not known here: links to them are checked up to the page.
  for (const page of [...generated, ...files.pages.map((file) => pagePathOf(file, layout))]) if (!site.pages.has(pageKey(page))) site.pages.set(pageKey(page), ANY_ANCHOR);

  const broken: Problem[] = [];
  const external = new Map<string, Problem[]>();
  const known = new Set(files.snippets.map((file) => file.slice(layout.snippetsDir.length + 1)));
  let checked = 0;
  for (const content of read) {
    const isSnippet = files.snippets.includes(content.file);
    const base = isSnippet ? `${SITE}/` : `${SITE}${pageHref(pagePathOf(content.file, layout))}`;
    // The deployment's check reports these as errors of its own (check-root.ts): `snippetUses: false`.
    if (options.snippetUses !== false) broken.push(...checkSnippetCalls(content.file, content.snippetCalls, known, layout.snippetsDir));
    for (const imp of options.snippetUses === false ? [] : content.imports) {
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
  return { broken, checked, external };
}

/** In file order, as an author goes through them. */
export function inFileOrder(broken: Problem[], files: RootFiles, contents: Array<{ file: string }>): Problem[] {
  const order = new Map([...contents.map((r) => r.file), files.config ?? 'docs.json'].map((file, i) => [file, i]));
  return broken.sort((a, b) => (order.get(a.file) ?? order.size) - (order.get(b.file) ?? order.size) || a.line - b.line || a.column - b.column);
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

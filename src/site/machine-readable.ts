// The machine-readable files of a site: sitemap.xml, robots.txt, llms.txt, llms-full.txt and a .md file per page.
import path from 'node:path';
import { getCollection, type CollectionEntry } from 'astro:content';
import { joinSections, keepSections, keptSections } from './llms-full-sections.ts';
import { pageBodyMarkdown } from './llms-markdown.ts';
import { bodyFacts, entryBody } from './loaders/rendered-files.ts';
import { operationToMarkdown } from './openapi/index.ts';
import { inSearch, siteModel, type SitePage } from './pages.ts';
import { pageHref, pageSlug } from './page-rules.ts';
import { absoluteUrl as absolute, docsConfig, siteBuild } from './build-settings.ts';

function siteName(): string {
  return docsConfig.name ?? 'Documentation';
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function sitemapXml(): Promise<string> {
  const { pages, navigation } = await siteModel();
  // Pages with noindex frontmatter are left out, as their robots meta asks; with docs.json `seo.indexing`
  // "navigable" (the default) so are pages no sidebar lists (hidden ones), as they carry noindex too.
  const all = docsConfig.seo?.indexing === 'all';
  const urls = pages
    .filter((p) => !p.operation?.hidden && !p.noindex && !(p.kind === 'content' && p.meta.noindex) && (all || navigation.isListed(p.path)))
    .map((p) => `  <url><loc>${xmlEscape(absolute(pageHref(p.path)))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt; the Sitemap line needs an absolute URL, so it is there only when the site URL is known. */
export function robotsTxt(): string {
  const sitemap = siteBuild.siteUrl ? `\nSitemap: ${absolute('/sitemap.xml')}\n` : '';
  return `User-agent: *\nAllow: /\n${sitemap}`;
}

/**
 * Every page the search lists, in reading order: the sidebar's order, then pages the sidebar does
 * not show. Hidden and noindex pages, x-hidden operations and `searchable: false` pages stay out,
 * as they stay out of the search (inSearch: one rule for every machine-readable surface).
 */
async function readingOrder(): Promise<SitePage[]> {
  const { sequence, pages } = await siteModel();
  const inSidebar = new Set(sequence);
  return [...sequence, ...pages.filter((p) => !inSidebar.has(p))].filter(inSearch);
}

/** llms.txt (llmstxt.org): the site's name and summary, then a link per page in reading order. */
export async function llmsTxt(): Promise<string> {
  const listed = await readingOrder();
  const lines = [`# ${siteName()}`, ''];
  if (docsConfig.description) lines.push(`> ${docsConfig.description}`, '');
  lines.push('## Pages', '');
  // Each page's link is its Markdown (the page's address + `.md`): what an AI tool reads best.
  for (const page of listed) lines.push(`- [${page.title}](${absolute(pageMarkdownHref(page.path))})${page.description ? `: ${page.description}` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** Where a build keeps its llms-full.txt for the next fast redeploy of the site (llms-full-sections.ts). */
const keptLlmsFull = () => path.join(siteBuild.cacheDir, 'folio-llms');

/**
 * llms-full.txt: every page's Markdown (as its .md file has it), in reading order. A fast
 * redeploy's build over the previous build's cache converts only its pages (onlyPages) and takes
 * the others' sections from the previous build's text: the plan (fast-redeploy.ts) lets through
 * only body changes of those pages, so no other page's Markdown, title, order or the site's name
 * can differ from that build's. Without a usable kept text, every page is converted. Its bytes,
 * in pieces: the kept sections are spliced without decoding or copying them (llms-full-sections.ts).
 */
export async function llmsFullTxt(): Promise<Buffer[]> {
  const listed = await readingOrder();
  const title = `# ${siteName()}`;
  const keys = listed.map((page) => page.path);
  const only = siteBuild.onlyPages && new Set(siteBuild.onlyPages);
  const kept = !import.meta.env.DEV && only && siteBuild.carriedCache ? keptSections(keptLlmsFull(), title, keys) : undefined;
  const again = (page: SitePage) => !kept || (page.kind === 'content' && !!only?.has(page.path));
  const converted = listed.filter(again);
  const snippets = await snippetSources(converted);
  const sections = listed.map((page, i) => (again(page) ? pageMarkdown(page, snippets).trim() : kept![i]!));
  // Read by bench:deploy and test/service/fast-redeploy-mintlify.test.ts.
  if (only && siteBuild.carriedCache) console.log(kept ? `[folio] llms-full.txt: ${converted.length} of ${listed.length} pages converted again (the others from the previous build's)` : '[folio] llms-full.txt: every page converted again (the previous build\'s could not be used)');
  const { pieces, index } = joinSections(title, keys, sections);
  if (!import.meta.env.DEV) keepSections(keptLlmsFull(), pieces, index);
  return pieces;
}

/** Where a page's Markdown is served: `/guides/setup.md` for `/guides/setup/`, `/index.md` for the home page. */
export function pageMarkdownHref(path: string): string {
  const slug = pageSlug(path);
  return `/${(slug ?? 'index').split('/').map(encodeURIComponent).join('/')}.md`;
}

/**
 * The .md files of this build, by the page address they stand beside (`guides/setup` for
 * `guides/setup.md`, `index` for the home page): one for each page the search lists, and no other
 * (docs/decisions.md#ai-ready-docs). A fast redeploy renders only its changed pages; the others'
 * .md files come with the previous build.
 */
export async function markdownPages(): Promise<Array<{ slug: string; page: SitePage }>> {
  const only = siteBuild.onlyPages && new Set(siteBuild.onlyPages);
  return (await siteModel()).pages
    .filter((page) => inSearch(page) && (!only || (page.kind === 'content' && only.has(page.path))))
    .map((page) => ({ slug: pageSlug(page.path) ?? 'index', page }));
}

/** One page's .md file. */
export async function pageMarkdownFile(page: SitePage): Promise<string> {
  return pageMarkdown(page, await snippetSources([page]));
}

let snippetsLoaded: Promise<Map<string, string>> | undefined;
/** The site's snippets by key, read once per build, and only when a page uses one (Astro warns when asked for an empty collection). */
function snippetSources(pages: SitePage[]): Promise<ReadonlyMap<string, string>> {
  if (!pages.some((p) => p.kind === 'content' && bodyFacts(p.entry).usesSnippets)) return Promise.resolve(new Map());
  return (snippetsLoaded ??= getCollection('snippets').then((entries: CollectionEntry<'snippets'>[]) => new Map(entries.map((s): [string, string] => [s.id, s.body ?? '']))));
}

// Each page's Markdown is made once per build: its .md file and llms-full.txt both need it. Keyed by
// the page object, which the build's site model keeps (a dev server's new model makes new ones).
const converted = new WeakMap<SitePage, string>();

/** A page as clean Markdown: its title and description, where it lives, then its content with components as Markdown. */
function pageMarkdown(page: SitePage, snippets: ReadonlyMap<string, string>): string {
  let markdown = converted.get(page);
  if (markdown === undefined) converted.set(page, (markdown = toPageMarkdown(page, snippets)));
  return markdown;
}

function toPageMarkdown(page: SitePage, snippets: ReadonlyMap<string, string>): string {
  const source = `Source: ${absolute(pageHref(page.path))}`;
  // Generated pages: the operation's heading first, then where it lives, then the rest.
  if (page.kind === 'openapi') return operationToMarkdown(page.operation).trim().replace('\n\n', `\n\n${source}\n\n`);
  const text = entryBody(page.entry, siteBuild.cacheDir).trim();
  const isMdx = !page.entry.filePath?.endsWith('.md');
  const body = pageBodyMarkdown(text, snippets, isMdx).trim();
  // An `openapi:` frontmatter page: the operation's reference, then the page's own text.
  if (page.operation) return [operationToMarkdown(page.operation).trim().replace('\n\n', `\n\n${source}\n\n`), body].filter(Boolean).join('\n\n');
  const head = page.hasOwnTitle ? [] : [`# ${page.title}`];
  if (page.description) head.push(`> ${page.description}`);
  head.push(source);
  return `${head.join('\n\n')}\n\n${body}\n`;
}

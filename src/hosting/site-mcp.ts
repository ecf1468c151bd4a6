// The MCP server of a site (docs/decisions.md#ai-ready-docs): `/mcp` on the site's host speaks MCP's
// Streamable HTTP transport (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports),
// stateless, each POSTed JSON-RPC request answered with one JSON response. Tools: `search` and
// `get_page`; resources: the site's pages. Everything it reads comes from the live build's own
// files: the pages `llms.txt` lists (the search's pages, no other) and their `.md` files, so no
// path reaches a hidden page, another project or a file outside the build.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SiteSource } from './site-source.ts';
import { pageSearchIndexBuilder, queryWords, searchPages, type PageSearchIndex } from './page-search.ts';

/** The protocol revision answered when the client asks for one this server does not know. */
const PROTOCOL_VERSION = '2025-06-18';
const KNOWN_VERSIONS = new Set(['2025-06-18', '2025-03-26', '2024-11-05']);
/** A request body larger than this is refused unread (a JSON-RPC call is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;
/** A page's Markdown read beyond this is cut: the site's own tenant limits bound pages far below it. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;
const MAX_INDEX_BYTES = 16 * 1024 * 1024;
/** Pagefind's entry file lists a site's languages: a few hundred bytes. */
const MAX_ENTRY_BYTES = 64 * 1024;
/** Search index shards whose languages are read (a site of 1,000,000 pages at the default 1,000 a shard). */
const MAX_SEARCH_SHARDS = 1000;
const MAX_RESULTS = 10;
/** Sites whose search index stays in memory (the most recently used). */
const MAX_KEPT_INDEXES = 8;
/** Words of all kept search indexes together: past it, the least recently used are dropped. */
const MAX_KEPT_WORDS = 8_000_000;
/** Words one site's search index takes at most: the pages past it are not searched (the answer says so). */
export const MAX_INDEXED_WORDS = 2_000_000;
/** Pages indexed between two yields to the event loop, so other requests are answered meanwhile. */
const PAGES_PER_SLICE = 50;
/** `search` calls a minute one client address may make to one site (each ranks the site's index; serve-site.ts counts them). */
export const MCP_SEARCHES_PER_MINUTE = 20;
/** A search query longer than this is refused: a question to docs is a few words. */
export const MAX_QUERY_CHARS = 512;
const SNIPPET_CHARS = 200;

interface IndexedPage {
  /** The page's path as the tools take it: `guides/setup` (`index` for the home page). */
  path: string;
  title: string;
  url: string;
  description: string;
  /** The build file of its Markdown. */
  file: string;
}

interface SiteIndex {
  /** The site's name, as llms.txt's heading has it. */
  name: string;
  pages: IndexedPage[];
  byPath: Map<string, IndexedPage>;
  /** The search index, made on the first search of the build (concurrent searches share it). */
  search?: Promise<SearchIndex>;
  /** The words its search index holds, once made. */
  words?: number;
}

interface SearchIndex {
  /** Each page's Markdown, by its place in `pages`. */
  texts: string[];
  ranking: PageSearchIndex;
  /** Pages indexed: fewer than the site's when its words went past MAX_INDEXED_WORDS. */
  indexed: number;
}

/** A JSON-RPC error with its code. */
class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** Counts one `search` call against the client's budget: undefined when allowed, else the seconds to wait. */
export type SearchLimit = () => Promise<number | undefined>;

export interface SiteMcp {
  handle(build: string, req: IncomingMessage, res: ServerResponse, searchLimit?: SearchLimit): Promise<void>;
  forget(build: string): void;
}

/** `indexedWords`: the words one site's search index takes at most (MAX_INDEXED_WORDS unless given). */
export function createSiteMcp(source: SiteSource, { indexedWords = MAX_INDEXED_WORDS } = {}): SiteMcp {
  // A search index holds its site's whole text: only the sites searched most recently keep theirs,
  // so many tenants' sites never add up to more than a few indexes in memory.
  const indexes = new Map<string, Promise<SiteIndex>>();
  const indexOf = (build: string) => {
    let index = indexes.get(build);
    if (index) indexes.delete(build); // re-inserted below: the Map's order is the order of use
    else index = readIndex(source, build);
    indexes.set(build, index);
    void evict();
    return index;
  };
  /** Drops the least recently used indexes beyond the count and the words kept (`words` is set once a search index is made). */
  const wordsOf = async (index: Promise<SiteIndex>) => (await index.catch(() => undefined))?.words ?? 0;
  const evict = async () => {
    let kept = 0;
    for (const index of [...indexes.values()]) kept += await wordsOf(index);
    for (const [build, index] of indexes) {
      if (indexes.size <= MAX_KEPT_INDEXES && kept <= MAX_KEPT_WORDS) break;
      kept -= await wordsOf(index);
      indexes.delete(build);
    }
  };

  async function call(build: string, method: string, params: Record<string, unknown>, searchLimit?: SearchLimit): Promise<unknown> {
    switch (method) {
      case 'initialize': {
        const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        const siteName = (await indexOf(build)).name;
        return {
          protocolVersion: KNOWN_VERSIONS.has(asked) ? asked : PROTOCOL_VERSION,
          capabilities: { tools: {}, resources: {} },
          serverInfo: { name: `${siteName} docs`, version: '1.0.0' },
          instructions: `Search and read the pages of the ${siteName} documentation.`,
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: TOOLS };
      case 'tools/call': {
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        if (params.name === 'search') {
          if (typeof args.query !== 'string' || !args.query.trim()) return toolError('search needs `query`: the words to look for, as a string.');
          if (args.query.length > MAX_QUERY_CHARS) return toolError(`search's \`query\` is ${args.query.length} characters: send at most ${MAX_QUERY_CHARS} (a few words).`);
          const wait = await searchLimit?.();
          if (wait !== undefined) return toolError(`Too many searches from this address: at most ${MCP_SEARCHES_PER_MINUTE} a minute; retry after ${wait} s.`);
          const index = await indexOf(build);
          const found = await search(index, source, build, args.query, indexedWords);
          void evict();
          // The note on a partly indexed site is a second text item, so the first stays the results' JSON.
          const content = [{ type: 'text', text: JSON.stringify(found.results, null, 2) }, ...(found.searched ? [{ type: 'text', text: found.searched }] : [])];
          return { content, structuredContent: found };
        }
        if (params.name === 'get_page') {
          if (typeof args.path !== 'string') return toolError('get_page needs `path`: a page path such as `guides/setup` (as search answers it).');
          const index = await indexOf(build);
          const page = index.byPath.get(normalizePath(args.path));
          const text = page && (await source.readSmall(build, page.file, MAX_PAGE_BYTES));
          if (!page || !text) return toolError(`No page at \`${args.path}\` on this site: use a path that search answers.`);
          return { content: [{ type: 'text', text: text.toString('utf8') }] };
        }
        throw new RpcError(-32602, `Unknown tool ${JSON.stringify(params.name)}: the tools are search and get_page.`);
      }
      case 'resources/list':
        return { resources: (await indexOf(build)).pages.map((p) => ({ uri: p.url, name: p.path, title: p.title, description: p.description || undefined, mimeType: 'text/markdown' })) };
      case 'resources/read': {
        const index = await indexOf(build);
        const uri = typeof params.uri === 'string' ? params.uri : '';
        const page = index.pages.find((p) => p.url === uri);
        const text = page && (await source.readSmall(build, page.file, MAX_PAGE_BYTES));
        if (!page || !text) throw new RpcError(-32002, `No resource ${JSON.stringify(uri)}: use a uri that resources/list answers.`);
        return { contents: [{ uri, mimeType: 'text/markdown', text: text.toString('utf8') }] };
      }
      default:
        throw new RpcError(-32601, `Method ${JSON.stringify(method)} is not offered: this server has tools and resources.`);
    }
  }

  return {
    async handle(build, req, res, searchLimit) {
      if (req.method !== 'POST') {
        // No server-sent stream to open and no session to end: the transport allows a 405 for GET.
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('The MCP endpoint takes POSTed JSON-RPC messages.\n');
      }
      let body: unknown;
      try {
        body = JSON.parse((await readBody(req)).toString('utf8'));
      } catch (error) {
        return sendJson(res, 400, rpcError(null, -32700, error instanceof RangeError ? error.message : 'The body is not JSON: send one JSON-RPC message.'));
      }
      const message = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
      if (Array.isArray(body) || typeof body !== 'object' || body === null || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
        return sendJson(res, 400, rpcError(message?.id ?? null, -32600, 'Send one JSON-RPC 2.0 message with `jsonrpc: "2.0"` and a `method`.'));
      }
      // A notification (no id) is accepted and has no answer.
      if (message.id === undefined) {
        res.writeHead(202);
        return void res.end();
      }
      try {
        const params = typeof message.params === 'object' && message.params !== null ? (message.params as Record<string, unknown>) : {};
        sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: await call(build, message.method, params, searchLimit) });
      } catch (error) {
        if (error instanceof RpcError) return sendJson(res, 200, rpcError(message.id, error.code, error.message));
        throw error;
      }
    },
    forget(build) {
      indexes.delete(build);
    },
  };
}

const TOOLS = [
  {
    name: 'search',
    title: 'Search the docs',
    description: 'Search the pages of this documentation site. Answers up to 10 pages, best first, each with its title, URL, path and a snippet.',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'The words to look for.' } }, required: ['query'] },
  },
  {
    name: 'get_page',
    title: 'Read a page',
    description: 'The Markdown of one page of this documentation site, by its path (as search answers it, e.g. `guides/setup`) or URL.',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'The page path or URL.' } }, required: ['path'] },
  },
];

function toolError(text: string) {
  return { content: [{ type: 'text', text }], isError: true };
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new RangeError(`The body is over ${MAX_BODY_BYTES} bytes: send one JSON-RPC message.`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A page path from what a client sends: a path, an address or a URL, with or without `.md`. */
export function normalizePath(input: string): string {
  let p = input.trim().replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  p = p.replace(/^\/+|\/+$/g, '').replace(/\.md$/, '');
  return p === '' ? 'index' : p;
}

/** The site's pages, as its llms.txt lists them (pages.ts inSearch decided which), each with its .md file. */
async function readIndex(source: SiteSource, build: string): Promise<SiteIndex> {
  const llms = (await source.readSmall(build, 'llms.txt', MAX_INDEX_BYTES))?.toString('utf8') ?? '';
  const pages: IndexedPage[] = [];
  for (const line of llms.split('\n')) {
    const m = /^- \[(.*)\]\(([^()\s]*\.md)\)(?:: (.*))?$/.exec(line);
    if (!m) continue;
    const href = m[2]!.replace(/^[a-z]+:\/\/[^/]*/i, '');
    let file: string;
    try {
      file = decodeURIComponent(href.replace(/^\//, ''));
    } catch {
      continue;
    }
    if (file.split('/').some((s) => s === '' || s === '.' || s === '..')) continue;
    pages.push({ path: normalizePath(file), title: m[1]!, url: m[2]!, description: m[3] ?? '', file });
  }
  return { name: /^# (.+)$/m.exec(llms)?.[1]?.trim() || 'Documentation', pages, byPath: new Map(pages.map((p) => [p.path, p])) };
}

/**
 * Each page's language, as the site's search has it: Pagefind keeps an index per `<html lang>`,
 * listed in its `pagefind-entry.json` (each shard's, for a site in shards). A page under a folder named for one of those languages
 * (`es/…`) is in it; any other page is in the site's main language (the one of most pages).
 */
async function pageLanguages(source: SiteSource, build: string, pages: IndexedPage[]): Promise<string[]> {
  const readJson = async (file: string): Promise<Record<string, unknown>> => {
    try {
      const value: unknown = JSON.parse((await source.readSmall(build, file, MAX_ENTRY_BYTES))?.toString('utf8') ?? '{}');
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    } catch {
      return {}; // not readable: no languages from it
    }
  };
  // A large site's index is in shards, each with its own entry (src/builder/search-shards.ts): their counts add up.
  const listed = (await readJson('pagefind/shards.json')).indexes;
  const shards = Array.isArray(listed) ? listed.filter((dir): dir is string => typeof dir === 'string' && /^[1-9]\d{0,5}\/$/.test(dir)).slice(0, MAX_SEARCH_SHARDS) : [];
  const counts = new Map<string, number>();
  for (const dir of ['', ...shards]) {
    const languages = (await readJson(`pagefind/${dir}pagefind-entry.json`)).languages as Record<string, { page_count?: unknown }> | undefined;
    for (const [code, value] of Object.entries(languages && typeof languages === 'object' ? languages : {})) {
      counts.set(code.toLowerCase(), (counts.get(code.toLowerCase()) ?? 0) + (typeof value?.page_count === 'number' ? value.page_count : 0));
    }
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en';
  const known = new Set(counts.keys());
  return pages.map((page) => {
    const first = page.path.split('/')[0]!.toLowerCase();
    return page.path.includes('/') && known.has(first) ? first : main;
  });
}

/**
 * Each page's text and the ranking index, made once per live build as the pages are read (one
 * pass over each), yielding to the event loop every PAGES_PER_SLICE pages and stopping at
 * `indexedWords` (MAX_INDEXED_WORDS).
 */
async function searchIndex(index: SiteIndex, source: SiteSource, build: string, indexedWords: number): Promise<SearchIndex> {
  const languages = await pageLanguages(source, build, index.pages);
  const builder = pageSearchIndexBuilder();
  const texts: string[] = [];
  for (const [i, page] of index.pages.entries()) {
    if (builder.words >= indexedWords) break;
    const text = (await source.readSmall(build, page.file, MAX_PAGE_BYTES))?.toString('utf8') ?? '';
    texts.push(text);
    builder.add({ text, title: page.title, language: languages[i]! });
    if ((i + 1) % PAGES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  index.words = builder.words;
  return { texts, ranking: builder.finish(), indexed: texts.length };
}

/** A pattern finding the first of a query's words in a page's lower-cased text, in one pass. */
const anyOf = (words: string[]) => (words.length ? new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'u') : undefined);

/**
 * Ranks pages for a query as the site's search does (page-search.ts: Pagefind's formula over the
 * pages' Markdown), and answers the best with a snippet around the first query word found. When
 * the site was too large to index whole, the answer says how many pages were searched.
 */
async function search(index: SiteIndex, source: SiteSource, build: string, query: string, indexedWords: number) {
  const found = await (index.search ??= searchIndex(index, source, build, indexedWords));
  const first = anyOf(queryWords(query));
  const results = searchPages(found.ranking, query).slice(0, MAX_RESULTS).map(({ page: i }) => {
    const page = index.pages[i]!;
    const text = found.texts[i]!;
    const at = first?.exec(text.toLowerCase())?.index ?? -1;
    const from = Math.max(0, at - SNIPPET_CHARS / 2);
    return { title: page.title, url: page.url, path: page.path, snippet: (at < 0 ? page.description : text.slice(from, from + SNIPPET_CHARS)).replace(/\s+/g, ' ').trim() };
  });
  if (found.indexed === index.pages.length) return { results, searched: undefined };
  return { results, searched: `The first ${found.indexed} of the site's ${index.pages.length} pages: the site is larger than this search indexes (${indexedWords} words).` };
}

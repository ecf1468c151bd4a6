// Serving a project's live site on its own host (docs/decisions.md#serving): the build the project's `live`
// link (or, with object storage, the database) points at (site-source.ts), resolved once per request (so a concurrent redeploy never mixes two builds),
// with content types, ETag/304, HEAD, byte ranges of files sent as they are (byte-ranges.ts), immutable caching for hashed assets and revalidation for the
// rest, text sent brotli- or gzip-compressed from copies made at publish time (Accept-Encoding), `nosniff`, the site's Content-Security-Policy on every answer (plus a sandbox for SVG), and
// the site's own 404 page. The site's redirects (docs.json `redirects`, redirects.ts) answer before
// its files, except for Folio's own asset paths.
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { codeAllowed } from '../service/projects.ts';
import type { ProjectRecord } from '../service/store/records.ts';
import { siteContentSecurityPolicy } from './content-security-policy.ts';
import { CONNECT_ORIGINS_FILE, ORIGIN } from '../site/openapi/origins.ts';
import { BUILD_FILE_FLAGS, checkRequestPath, chooseEncoding, COMPRESSED_DIR, REVALIDATE, type SiteFile } from './site-files.ts';
import { createDiskSiteSource, type SiteSource } from './site-source.ts';
import { redirectable, REDIRECTS_FILE, redirectTableOf, RedirectTable, type RedirectAnswer } from './redirects.ts';
import { MAX_REDIRECTS_FILE_BYTES } from '../site/tenant-limits.ts';
import { createSiteMcp, MCP_SEARCHES_PER_MINUTE } from './site-mcp.ts';
import { requestedRange, sliceOf } from './byte-ranges.ts';
import { createMemoryRateLimiter, type RateLimiter } from '../service/rate-limiter.ts';

const NOT_DEPLOYED = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>404: nothing deployed here yet</h1><p>This documentation site has no successful deployment.</p></body></html>
`;

export const NO_SITE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>404: no site here</h1><p>No documentation site is served on this address.</p></body></html>
`;

const BAD_REQUEST = 'Bad request: the path is not valid.\n';

export interface SiteHandler {
  /**
   * Answers a request for a project's site (`project` undefined: a site host with no project), or
   * for its preview of a branch label (never indexed: `X-Robots-Tag: noindex`).
   */
  serve(project: ProjectRecord | undefined, req: IncomingMessage, res: ServerResponse, previewLabel?: string): Promise<void>;
  /** The project's live link was switched or removed: read it again on the next request. */
  liveChanged(projectId: string): void;
  /** Every project's live build may have changed unheard: read each again on its next request. */
  forgetLiveBuilds(): void;
}

function sendText(req: IncomingMessage, res: ServerResponse, policy: string, status: number, body: string, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    'cache-control': REVALIDATE,
    'content-security-policy': policy,
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Requests a minute one client address may make to one site's MCP server. */
export const MCP_REQUESTS_PER_MINUTE = 120;
/** Requests a minute one client address may make to the MCP servers of all sites together. */
export const MCP_ADDRESS_REQUESTS_PER_MINUTE = 4 * MCP_REQUESTS_PER_MINUTE;

/**
 * The client a limit counts: an IPv4 address, or the /64 network of an IPv6 address (one host
 * is given a /64, so a limit per /128 would be none at all).
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]!.split('::');
  const front = head ? head.split(':') : [];
  const back = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The .md file of the page a path may name (`guides/setup/` → `guides/setup.md`, `` → `index.md`), or undefined for a file's path. */
export function pageMarkdownPath(rel: string): string | undefined {
  if (rel === '') return 'index.md';
  const name = rel.replace(/\/$/, '');
  return rel.endsWith('/') || !/\.[^/]*$/.test(name) ? `${name}.md` : undefined;
}

/** Whether an Accept header asks for Markdown over HTML: `text/markdown` named with a q-value above 0 and no lower than text/html's. */
export function prefersMarkdown(header: string | undefined): boolean {
  if (!header || !/text\/markdown/i.test(header)) return false;
  const q: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [type, ...params] = part.split(';');
    const weight = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
    q[type!.trim().toLowerCase()] = weight ? Number(weight[1]) : 1;
  }
  const markdown = q['text/markdown'] ?? 0;
  return markdown > 0 && markdown >= (q['text/html'] ?? 0);
}

/** A header Node may give as a list when repeated: a repeated If-Range is not one validator, so it matches none. */
const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/** True when If-None-Match names this ETag (or `*`). */
function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * The headers of a file's whole answer (200 or the 404 page) and of its 304, with the site's policy
 * and, on a page's address, `Vary: Accept` (its Markdown answers the same address): made once per
 * file, policy and kind of answer, not on each request (docs/decisions.md#serving-a-page-as-fast-as-an-asset).
 * Held beside the file in a WeakMap, so they go when the file cache lets the file go.
 */
interface Answer {
  policy: string;
  whole: string[];
  /** The headers of a 304, and of a 206 before its range: the whole answer's but its length. */
  notModified: string[];
  /** The Content-Security-Policy and Vary headers, for the answers made per request. */
  csp: string[];
  vary: string[];
}
/** Slots by kind: bit 1 a page's address, bit 2 ranges accepted. */
const answers = new WeakMap<SiteFile, Array<Answer | undefined>>();

function answerOf(file: SiteFile, policy: string, page: boolean, ranged: boolean): Answer {
  let kinds = answers.get(file);
  if (!kinds) answers.set(file, (kinds = []));
  const kind = (page ? 1 : 0) | (ranged ? 2 : 0);
  const held = kinds[kind];
  if (held?.policy === policy) return held;
  const csp = ['content-security-policy', file.sandbox ? `${policy}; sandbox` : policy];
  // One Vary naming both where the file's own headers name Accept-Encoding (a compressed file).
  const varies = [...(page ? ['accept'] : []), ...(file.headers.includes('vary') ? ['accept-encoding'] : [])];
  const vary = varies.length ? ['vary', varies.join(', ')] : [];
  const own = (headers: string[]) => {
    const at = headers.indexOf('vary');
    return at < 0 ? headers : [...headers.slice(0, at), ...headers.slice(at + 2)];
  };
  const answer = {
    policy,
    whole: [...own(file.headers), ...vary, ...(ranged ? ['accept-ranges', 'bytes'] : []), ...csp],
    notModified: [...own(file.notModifiedHeaders), ...vary, ...csp],
    csp,
    vary,
  };
  kinds[kind] = answer;
  return answer;
}

function sendFile(req: IncomingMessage, res: ServerResponse, policy: string, found: SiteFile, status = 200, page = false): void {
  // A text file's copy compressed at publish time, when the client takes its encoding: only read, never compressed here.
  const encoding = found.encoded && chooseEncoding(req.headers['accept-encoding'], found.encoded);
  const file = encoding ? found.encoded![encoding]! : found;
  // Ranges of a file sent as it is; a compressed answer and the 404 page are always whole (byte-ranges.ts).
  const ranged = status === 200 && !encoding;
  const answer = answerOf(file, policy, page, ranged);
  if (status === 200 && notModified(req, file.etag)) {
    res.writeHead(304, answer.notModified);
    res.end();
    return;
  }
  const range = ranged ? requestedRange(req.headers.range, headerText(req.headers['if-range']), file.etag, file.size) : { kind: 'full' as const };
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, ['content-range', `bytes */${file.size}`, 'content-length', '0', 'x-content-type-options', 'nosniff', 'cache-control', REVALIDATE, ...answer.vary, ...answer.csp]);
    res.end();
    return;
  }
  if (range.kind === 'partial') {
    res.writeHead(206, [...answer.notModified, 'accept-ranges', 'bytes', 'content-range', `bytes ${range.start}-${range.end}/${file.size}`, 'content-length', String(range.end - range.start + 1)]);
  } else {
    res.writeHead(status, answer.whole);
  }
  if (req.method === 'HEAD') return void res.end();
  const { start, end } = range.kind === 'partial' ? range : { start: 0, end: file.size - 1 };
  if (file.body) return void res.end(range.kind === 'partial' ? file.body.subarray(start, end + 1) : file.body);
  if (file.open) {
    // A build in object storage: the headers are sent, so a failed fetch can only cut the answer.
    file.open().then((whole) => {
      whole.on('error', () => res.destroy());
      const stream = range.kind === 'partial' ? sliceOf(whole, start, end) : whole;
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    }, () => res.destroy());
    return;
  }
  open(file.abs, BUILD_FILE_FLAGS).then((handle) => {
    const stream = range.kind === 'partial' ? handle.createReadStream({ start, end }) : handle.createReadStream();
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy()); // closes the file when the client goes first
    stream.pipe(res);
  }, () => res.destroy());
}

function sendRedirect(req: IncomingMessage, res: ServerResponse, policy: string, answer: RedirectAnswer): void {
  // Visible to people too (a browser shows it only when it does not follow the redirect).
  sendText(req, res, policy, answer.status, `Redirecting to ${answer.location}\n`, 'text/plain; charset=utf-8', { location: answer.location });
}

/**
 * The redirects of a live build (REDIRECTS_FILE), or an empty table when it has none. The file is
 * written by Folio after the build, but the build dir was writable by the build: it is validated
 * again (redirectTableOf), and an invalid or oversized one means no redirects (never a failing site).
 */
async function loadRedirects(source: SiteSource, build: string): Promise<RedirectTable> {
  // One byte more than a valid file may have, so that a longer one is cut and fails to parse.
  const bytes = await source.readSmall(build, REDIRECTS_FILE, MAX_REDIRECTS_FILE_BYTES + 1).catch(() => undefined);
  return redirectTableOf(bytes?.toString('utf8'));
}

/** Largest origins file read, and most origins taken from it: the list is a build's output, so tenant-made. */
const MAX_ORIGINS_BYTES = 16 * 1024;
const MAX_ORIGINS = 50;

/**
 * The playground origins a live build lists (src/site/openapi/origins.ts), each checked to be an
 * exact `http(s)://host[:port]`; a missing, linked or odd file gives none.
 */
async function readConnectOrigins(source: SiteSource, build: string): Promise<string[]> {
  const bytes = await source.readSmall(build, CONNECT_ORIGINS_FILE, MAX_ORIGINS_BYTES).catch(() => undefined);
  if (!bytes) return [];
  return [...new Set(bytes.toString('utf8').split('\n').map((line) => line.trim()).filter((line) => ORIGIN.test(line)))].slice(0, MAX_ORIGINS);
}

/**
 * The handler of every site host, reading live builds from `source` (a data dir: its builds on
 * disk). `allowCode` is the operator's FOLIO_ALLOW_CODE: a project's site runs its own scripts only
 * while code is allowed for it (codeAllowed), the rule its builds follow. The policy follows the
 * project's setting now, not the build that is live: a site built with code and then turned off
 * loses its hydration (its server-rendered HTML stays) until the next deployment, which refuses
 * the code. `mcpLimiter` counts the sites' MCP requests: the service's shared limiter, so that
 * several nodes hold one budget per client address (in memory when there is one node).
 */
export function createSiteHandler(sourceOrDataDir: SiteSource | string, allowCode = true, mcpLimiter: RateLimiter = createMemoryRateLimiter()): SiteHandler {
  const source = typeof sourceOrDataDir === 'string' ? createDiskSiteSource(sourceOrDataDir) : sourceOrDataDir;
  const files = source.files;
  // Each project's live build, read once and kept until the handler hears that it changed (a
  // publish in this process, or another node's through the database): no lookup per request.
  // Keyed by project id, or `{project id}/{label}` for a preview. A change counts up the project's
  // generation, so that an answer asked for before the change is not kept after it.
  const liveBuilds = new Map<string, string>();
  const generations = new Map<string, number>();
  let allGeneration = 0;
  // Each live build's redirects, compiled once (the build never changes while live).
  const redirectTables = new Map<string, RedirectTable | Promise<RedirectTable>>();
  const redirectsOf = (build: string): RedirectTable | Promise<RedirectTable> => {
    let table = redirectTables.get(build);
    if (!table) {
      const loading = loadRedirects(source, build).then((t) => {
        if (redirectTables.get(build) === loading) redirectTables.set(build, t);
        return t;
      });
      redirectTables.set(build, (table = loading));
    }
    return table;
  };
  const liveKey = (projectId: string, previewLabel?: string) => (previewLabel ? `${projectId}/${previewLabel}` : projectId);
  const liveBuild = async (projectId: string, previewLabel?: string) => {
    const key = liveKey(projectId, previewLabel);
    const known = liveBuilds.get(key);
    if (known !== undefined) return known;
    const generation = generations.get(projectId) ?? 0;
    const all = allGeneration;
    const build = await source.liveBuild(projectId, previewLabel);
    if (build && (generations.get(projectId) ?? 0) === generation && allGeneration === all) liveBuilds.set(key, build);
    return build;
  };

  // Each live build's policies (without and with the project's code), its playground origins read
  // once: built per request they were a new 600-character string each time.
  const policies = new Map<string, [string, string]>();
  const policiesOf = async (build: string) => {
    let both = policies.get(build);
    if (!both) {
      const origins = await readConnectOrigins(source, build);
      both = [siteContentSecurityPolicy({ allowCode: false, connectOrigins: origins }), siteContentSecurityPolicy({ allowCode: true, connectOrigins: origins })];
      policies.set(build, both);
    }
    return both;
  };

  const mcp = createSiteMcp(source);
  // Counts of this node alone, in front of the shared limiter: a flood from one address is refused
  // here, with no write to the database; what passes is counted by every node's shared budget.
  const mcpPreLimiter = createMemoryRateLimiter();

  const serve: SiteHandler['serve'] = async (project, req, res, previewLabel) => {
    const code = !!project && codeAllowed(project, { allowCode });
    let policy = siteContentSecurityPolicy({ allowCode: code });
    if (!project) return sendText(req, res, policy, 404, NO_SITE);
    // Previews are for review, not for search engines (docs/decisions.md#continuous-deployment).
    if (previewLabel) res.setHeader('x-robots-tag', 'noindex');
    // The site's MCP server (site-mcp.ts), limited per client address in the service's shared limiter
    // (so every node counts one budget): each call may read the whole site once.
    if (/^\/mcp\/?(?:[?#]|$)/.test(req.url ?? '')) {
      const live = await liveBuild(project.id, previewLabel);
      if (!live) return sendText(req, res, policy, 404, NOT_DEPLOYED);
      const client = addressGroup(req.socket.remoteAddress ?? '');
      const site = `mcp:${project.id}:${client}`;
      const all = `mcp:${client}`;
      const limits = [
        [site, MCP_REQUESTS_PER_MINUTE, 'to this site'],
        [all, MCP_ADDRESS_REQUESTS_PER_MINUTE, 'to all sites'],
      ] as const;
      for (const limiter of [mcpPreLimiter, mcpLimiter]) {
        for (const [bucket, most, where] of limits) {
          const limit = await limiter.hit(bucket, most);
          if (!limit.allowed) {
            return sendText(req, res, policy, 429, `Too many MCP requests from this address ${where}: at most ${most} a minute; retry after ${limit.retryAfter} s.\n`, 'text/plain; charset=utf-8', { 'retry-after': String(limit.retryAfter) });
          }
        }
      }
      return mcp.handle(live, req, res, async () => {
        for (const limiter of [mcpPreLimiter, mcpLimiter]) {
          const limit = await limiter.hit(`mcp-search:${project.id}:${client}`, MCP_SEARCHES_PER_MINUTE);
          if (!limit.allowed) return limit.retryAfter;
        }
        return undefined;
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(req, res, policy, 405, 'Method not allowed: sites answer GET and HEAD.\n', 'text/plain; charset=utf-8', { allow: 'GET, HEAD' });
    }
    // The live build, captured once: everything this request reads comes from this directory.
    // Known without waiting once read (the common case: no promise to settle).
    const live = liveBuilds.get(liveKey(project.id, previewLabel)) ?? (await liveBuild(project.id, previewLabel));
    if (!live) return sendText(req, res, policy, 404, NOT_DEPLOYED);
    policy = (policies.get(live) ?? (await policiesOf(live)))[code ? 1 : 0];
    const checked = checkRequestPath(req.url ?? '/');
    if (!checked.ok) return sendText(req, res, policy, 400, BAD_REQUEST, 'text/plain; charset=utf-8');
    const url = req.url ?? '/';
    const queryAt = url.search(/[?#]/);
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    const own = !redirectable(checked.rel);
    const tableOrLoading = redirectsOf(live);
    const table = tableOrLoading instanceof RedirectTable ? tableOrLoading : await tableOrLoading;
    if (!own) {
      const search = queryAt < 0 || url[queryAt] === '#' ? '' : url.slice(queryAt).replace(/#.*$/, '');
      const redirect = table.match(pathname, search);
      if (redirect) return sendRedirect(req, res, policy, redirect);
    }
    // The stored rules and compressed copies are the server's to read, not the site's to serve.
    const file = checked.rel === REDIRECTS_FILE || checked.rel === COMPRESSED_DIR || checked.rel.startsWith(`${COMPRESSED_DIR}/`) ? null : (files.cached(live, checked.rel) ?? (await files.find(live, checked.rel)));
    // A page's address answers with its Markdown to a client that asks for it (docs/decisions.md#ai-ready-docs).
    const markdown = pageMarkdownPath(checked.rel);
    const page = markdown !== undefined;
    if (page && prefersMarkdown(req.headers.accept)) {
      const md = files.cached(live, markdown) ?? (await files.find(live, markdown));
      if (md) return sendFile(req, res, policy, md, 200, page);
    }
    if (file) return sendFile(req, res, policy, file, 200, page);
    const home = own ? undefined : table.notFound(pathname);
    if (page) res.setHeader('vary', 'Accept');
    if (home) return sendRedirect(req, res, policy, home);
    const notFound = files.cached(live, '404.html') ?? (await files.find(live, '404.html'));
    if (notFound) return sendFile(req, res, policy, notFound, 404, page);
    sendText(req, res, policy, 404, NO_SITE);
  };

  const handler: SiteHandler = {
    serve,
    liveChanged(projectId) {
      forget(projectId);
      // The build that went live compiles its redirects now, when it is published, rather than
      // on its first visit (their size is bounded: REDIRECT_LIMITS).
      liveBuild(projectId).then((build) => build && redirectsOf(build), () => undefined);
    },
    forgetLiveBuilds() {
      forget();
    },
  };
  return handler;

  /** Forgets the live builds of one project, or of every project. */
  function forget(projectId?: string): void {
    if (projectId) generations.set(projectId, (generations.get(projectId) ?? 0) + 1);
    else allGeneration++;
    for (const [key, old] of liveBuilds) {
      if (projectId && key !== projectId && !key.startsWith(`${projectId}/`)) continue;
      liveBuilds.delete(key);
      files.forget(old);
      mcp.forget(old);
      policies.delete(old);
      redirectTables.delete(old);
    }
  }
}

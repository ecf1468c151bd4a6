// Hands a node:http request to the built Astro App (the API's endpoints and the console's pages) and
// writes its Response back (docs/architecture.md#the-request-path). This is the whole of what an
// adapter's request handler does for Folio, and no more: a Request made once from the node request
// (one URL, the headers as Node parsed them, the body streamed with a size limit), the App's own
// route match and render, and the Response written back as it comes.
// The service's own endpoints (`/v1/[...path]`, `/healthz`) take a shorter way through the same
// built modules: see `serviceEndpoints` below (docs/decisions.md#the-service-endpoints-fast-path).
// Request.signal is not tied to the connection (nothing in Folio reads it), and no request is
// retried as a prerendered error page (the service role has none).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { BaseApp } from 'astro/app';
import { InMemoryResponse, type ApiRequest } from './http.ts';

/** Astro's App as the built bundle exports it (src/api/astro-entry.ts). */
export type AstroApp = Pick<BaseApp, 'match' | 'render' | 'manifest'>;

/**
 * Answers one request: with the App's route, or `fallback`'s Response when no route matches.
 * `head`: header pairs (name, value, …, lower case) every answer gets unless it has them already.
 */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, locals: App.Locals, fallback: () => Response, head?: readonly string[]) => Promise<void>;

/**
 * The part of Astro's APIContext the service's own endpoints read: all the adapter hands them on
 * their short way. Typing an endpoint with it (`satisfies ServiceEndpoint`) keeps it an ordinary
 * Astro endpoint (APIContext has all of this) that cannot start reading a field this does not carry.
 */
export interface ServiceEndpointContext {
  request: ApiRequest;
  url: URL;
  locals: App.Locals;
  clientAddress: string;
}

export type ServiceEndpoint = (context: ServiceEndpointContext) => Response | Promise<Response>;

/** The injected routes whose endpoints the adapter calls itself, skipping Astro's per-request pipeline. */
const SERVICE_ROUTES = ['/v1/[...path]', '/healthz'];

/** A Host header that can stand in a URL (a name or address, an optional port); others become `localhost`. */
const URL_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

const noErrorPage = () => Promise.resolve(new Response(null, { status: 404 }));

async function* limited(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncIterable<Uint8Array> {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > maxBytes) throw new Error(`request body is larger than ${maxBytes} bytes`);
    yield chunk;
  }
}

/** The URL of a request: `http://{Host}{path}`. */
function requestUrl(req: IncomingMessage): string {
  const host = req.headers.host;
  const path = req.url?.startsWith('/') ? req.url : '/';
  return `http://${host && URL_HOST.test(host) && URL.canParse(`http://${host}/`) ? host : 'localhost'}${path}`;
}

/** `new URL(requestUrl(req))`, parsed once: a Host that passes the pattern but no parse is `localhost`, as there. */
function parsedRequestUrl(req: IncomingMessage): URL {
  const host = req.headers.host;
  const path = req.url?.startsWith('/') ? req.url : '/';
  if (host && URL_HOST.test(host)) {
    try {
      return new URL(`http://${host}${path}`);
    } catch {
      // An invalid port, say: as any other Host that cannot stand in a URL.
    }
  }
  return new URL(`http://localhost${path}`);
}

/** The Request the App sees: `http://{Host}{path}`, Node's parsed headers, the body streamed. */
export function toRequest(req: IncomingMessage, maxBodyBytes: number): Request {
  const url = requestUrl(req);
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.append(name, value);
    else if (value) for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  // `duplex` is required with a streamed body (https://fetch.spec.whatwg.org/#dom-requestinit-duplex).
  return new Request(url, { method, headers, body: limited(req, maxBodyBytes) as unknown as BodyInit, duplex: 'half' } as RequestInit);
}

/** Resolves once `res` may take more data, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Adds to `pairs` (lower-case names) each pair of `extra` whose name is not there yet. */
function withExtra(pairs: string[], extra: readonly string[] | undefined): string[] {
  if (extra) {
    for (let i = 0; i < extra.length; i += 2) {
      let has = false;
      for (let j = 0; j < pairs.length && !has; j += 2) has = pairs[j] === extra[i];
      if (!has) pairs.push(extra[i]!, extra[i + 1]!);
    }
  }
  return pairs;
}

/**
 * Writes a Response to node:http: a body made in memory goes out with the head in one write; a
 * streamed body is written as it comes, paced by the socket, and canceled if the client goes away.
 * `withoutBody`: the answer to a HEAD request; `extra`: header pairs added unless the response has them
 * (given here rather than with `res.setHeader`, which makes Node merge two sets of headers).
 */
export async function writeResponse(response: Response, res: ServerResponse, { withoutBody = false, extra }: { withoutBody?: boolean; extra?: readonly string[] } = {}): Promise<void> {
  // A body made in memory (every JSON answer) goes out as it is, in the same write as the head (as
  // a string, Node sends head and body as one buffer).
  if (response instanceof InMemoryResponse && !response.bodyUsed) {
    res.writeHead(response.status, withExtra(response.headPairs(), extra));
    if (withoutBody) res.end();
    else res.end(response.content);
    return;
  }
  const head: string[] = [];
  // Iterating Headers yields each Set-Cookie on its own (https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine).
  for (const [name, value] of response.headers) head.push(name, value);
  withExtra(head, extra);
  if (response.statusText) res.writeHead(response.status, response.statusText, head);
  else res.writeHead(response.status, head);
  if (withoutBody) {
    if (response.body) void response.body.cancel().catch(() => {});
    res.end();
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A body of known length (every JSON answer) is one chunk that needs no watching; a stream (a
  // followed log) may wait long before its first chunk, so a client that leaves must end it at once.
  const streamed = !response.headers.has('content-length');
  const cancel = () => void reader.cancel().catch(() => {});
  if (streamed) res.once('close', cancel);
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) {
        cancel();
        return;
      }
      if (!res.write(chunk.value)) await drained(res);
    }
    res.end();
  } catch {
    // The body failed half-way: the head is out, so the client can only see the connection end.
    res.destroy();
  } finally {
    if (streamed) res.off('close', cancel);
  }
}

/** Node's parsed headers read as `Headers.get` reads them: a repeated header's values joined with ", ". */
class NodeHeaders {
  readonly #headers: IncomingHttpHeaders;
  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers;
  }
  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * What a service endpoint reads of the node request (ApiRequest), with no Request made: Node's
 * headers as they are, and the body (as `toRequest` streams it, under the same backstop) made a
 * web stream only when an endpoint reads it.
 */
class NodeRequest implements ApiRequest {
  readonly method: string;
  readonly headers: NodeHeaders;
  readonly #req: IncomingMessage;
  readonly #maxBodyBytes: number;
  #body: ReadableStream<Uint8Array> | null | undefined;
  constructor(req: IncomingMessage, maxBodyBytes: number) {
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeaders(req.headers);
    this.#req = req;
    this.#maxBodyBytes = maxBodyBytes;
  }
  get body(): ReadableStream<Uint8Array> | null {
    // As a Request: a GET or HEAD has no body.
    if (this.method === 'GET' || this.method === 'HEAD') return null;
    // The stream `toRequest`'s Request makes of the same iterable (undici's body extraction).
    return (this.#body ??= new Response(limited(this.#req, this.#maxBodyBytes) as unknown as BodyInit).body);
  }
}

/** The context a service endpoint gets on the short way. */
class ServiceContext implements ServiceEndpointContext {
  readonly request: ApiRequest;
  readonly url: URL;
  readonly locals: App.Locals;
  readonly #remoteAddress: string | undefined;
  constructor(request: ApiRequest, url: URL, locals: App.Locals, remoteAddress: string | undefined) {
    this.request = request;
    this.url = url;
    this.locals = locals;
    this.#remoteAddress = remoteAddress;
  }
  get clientAddress(): string {
    // As Astro's APIContext: a connection already closed has no address.
    if (this.#remoteAddress === undefined) throw new Error('the client address is not available: the connection has closed');
    return this.#remoteAddress;
  }
}

interface ServiceRoute {
  /** Astro's pattern for the route: it decides which paths are the route's, as in Astro's own match. */
  pattern: RegExp;
  /** The other routes' patterns that could match a path of this route's: such a path takes Astro's way, which decides. */
  rivals: RegExp[];
  module: Record<string, unknown>;
}

/**
 * The service's own endpoints, resolved once from the App's manifest: each route's pattern and its
 * built module (the one Astro's own render loads). A route the build lacks is left out: its paths
 * take Astro's way.
 */
async function serviceEndpoints(app: AstroApp): Promise<ServiceRoute[]> {
  const { manifest } = app;
  if (manifest.base !== '/' || !manifest.pageMap) return [];
  const all = manifest.routes.map((r) => r.routeData);
  const found: ServiceRoute[] = [];
  for (const route of all) {
    if (!SERVICE_ROUTES.includes(route.route) || route.type !== 'endpoint' || route.prerender) continue;
    const load = manifest.pageMap.get(route.component);
    if (!load) continue;
    const module = (await (await load()).page()) as unknown as Record<string, unknown>;
    // A route whose first segment is another fixed name can never match this route's paths.
    const first = route.segments[0];
    const fixedFirst = first?.length === 1 && !first[0]!.dynamic ? first[0]!.content : undefined;
    const rivals = all.filter((other) => {
      if (other === route) return false;
      const otherFirst = other.segments[0];
      if (fixedFirst === undefined || otherFirst === undefined) return true;
      return !(otherFirst.length === 1 && !otherFirst[0]!.dynamic && otherFirst[0]!.content !== fixedFirst);
    });
    found.push({ pattern: route.pattern, rivals: rivals.map((r) => r.pattern), module });
  }
  return found;
}

/**
 * The service endpoint that answers `pathname`, if Astro's match would pick it for sure: the path is
 * one its pattern matches, no other route's pattern does, it needs no decoding (Astro matches the
 * decoded path) and no slash collapsing, and no built asset has it.
 */
function serviceRouteOf(routes: ServiceRoute[], assets: Set<string>, pathname: string): ServiceRoute | undefined {
  if (pathname.includes('%') || pathname.includes('//') || assets.has(pathname)) return undefined;
  for (const route of routes) {
    if (route.pattern.test(pathname)) return route.rivals.some((rival) => rival.test(pathname)) ? undefined : route;
  }
  return undefined;
}

/** The endpoint function Astro's renderEndpoint would call for `method`. */
function handlerOf(module: Record<string, unknown>, method: string): ServiceEndpoint | undefined {
  const handler = module[method] ?? module.ALL ?? (method === 'HEAD' ? module.GET : undefined);
  return typeof handler === 'function' ? (handler as ServiceEndpoint) : undefined;
}

/** The request handler of the built App. `maxBodyBytes` is a backstop: routes enforce their smaller limits themselves. */
export async function createAstroHandler(app: AstroApp, maxBodyBytes: number): Promise<AstroHandler> {
  const routes = await serviceEndpoints(app);
  const { assets } = app.manifest;
  return async (req, res, locals, fallback, head) => {
    if (!locals.console) {
      const url = parsedRequestUrl(req);
      const route = serviceRouteOf(routes, assets, url.pathname);
      const method = req.method ?? 'GET';
      const handler = route && handlerOf(route.module, method);
      if (route && handler) {
        // What Astro's render would do for an endpoint, without its per-request pipeline (FetchState,
        // the fetch file, render options): the module's handler with the context fields it reads.
        const response = await handler.call(route.module, new ServiceContext(new NodeRequest(req, maxBodyBytes), url, locals, req.socket.remoteAddress));
        if (!(response instanceof Response)) throw new Error(`the endpoint of ${url.pathname} did not return a Response`);
        // As Astro does for HEAD: the status and headers of the GET, no body.
        return writeResponse(response, res, { withoutBody: method === 'HEAD', extra: head });
      }
    }
    const request = toRequest(req, maxBodyBytes);
    const routeData = app.match(request);
    if (!routeData) return writeResponse(fallback(), res, { extra: head });
    const response = await app.render(request, {
      addCookieHeader: true,
      clientAddress: req.socket.remoteAddress,
      locals,
      routeData,
      prerenderedErrorPageFetch: noErrorPage,
    });
    await writeResponse(response, res, { extra: head });
  };
}

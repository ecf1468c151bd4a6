// Hands a node:http request to the built Astro App (the API's endpoints and the console's pages) and
// writes its Response back (docs/architecture.md#the-request-path). This is the whole of what an
// adapter's request handler does for Folio, and no more: a Request made once from the node request
// (one URL, the headers as Node parsed them, the body streamed with a size limit), the App's own
// route match and render, and the Response written back as it comes.
// Request.signal is not tied to the connection (nothing in Folio reads it), and no request is
// retried as a prerendered error page (the service role has none).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BaseApp } from 'astro/app';

/** Astro's App as the built bundle exports it (src/api/astro-entry.ts). */
export type AstroApp = Pick<BaseApp, 'match' | 'render'>;

/** Answers one request: with the App's route, or `fallback`'s Response when no route matches. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, locals: App.Locals, fallback: () => Response) => Promise<void>;

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

/** The Request the App sees: `http://{Host}{path}`, Node's parsed headers, the body streamed. */
export function toRequest(req: IncomingMessage, maxBodyBytes: number): Request {
  const host = req.headers.host;
  const path = req.url?.startsWith('/') ? req.url : '/';
  const url = `http://${host && URL_HOST.test(host) ? host : 'localhost'}${path}`;
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

/**
 * Writes a Response to node:http: the head goes out with the first chunk of the body in one write
 * (every JSON answer is one chunk); a longer body is written as it comes, paced by the socket, and
 * canceled if the client goes away.
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const head: string[] = [];
  // Iterating Headers yields each Set-Cookie on its own (https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine).
  for (const [name, value] of response.headers) head.push(name, value);
  if (response.statusText) res.writeHead(response.status, response.statusText, head);
  else res.writeHead(response.status, head);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // Only a body of several chunks (a stream) is worth canceling when the client goes away.
  let cancel: (() => void) | undefined;
  try {
    for (let chunk = await reader.read(), n = 0; !chunk.done && !res.destroyed; chunk = await reader.read(), n++) {
      if (n === 1) res.once('close', (cancel = () => void reader.cancel().catch(() => {})));
      if (!res.write(chunk.value)) await drained(res);
    }
    res.end();
  } catch {
    // The body failed half-way: the head is out, so the client can only see the connection end.
    res.destroy();
  } finally {
    if (cancel) res.off('close', cancel);
  }
}

/** The request handler of the built App. `maxBodyBytes` is a backstop: routes enforce their smaller limits themselves. */
export function createAstroHandler(app: AstroApp, maxBodyBytes: number): AstroHandler {
  return async (req, res, locals, fallback) => {
    const request = toRequest(req, maxBodyBytes);
    const routeData = app.match(request);
    if (!routeData) return writeResponse(fallback(), res);
    const response = await app.render(request, {
      addCookieHeader: true,
      clientAddress: req.socket.remoteAddress,
      locals,
      routeData,
      prerenderedErrorPageFetch: noErrorPage,
    });
    await writeResponse(response, res);
  };
}

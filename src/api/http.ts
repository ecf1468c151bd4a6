// HTTP conventions of the API (docs/decisions.md#http-conventions): the one error type, JSON responses and body reading.
import type { z } from 'zod';
import { asStorageError, FolioError, formatIssues, isOutOfSpace } from '../service/errors.ts';

export { FolioError };

/** Turns any thrown value into the FolioError the API answers; unknown errors become a 500 without details. */
export function toApiError(err: unknown): FolioError {
  if (err instanceof FolioError) return err;
  // A full disk met on a path that did not name what it was storing: still 507, not a bug.
  if (isOutOfSpace(err)) return toApiError(asStorageError(err, 'the change'));
  console.error(err);
  return new FolioError('internal_error', 'internal error: the server could not handle the request');
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What the API reads of a request: a `Request` in `astro dev`, and in production the adapter's view
 * of the node:http request, which makes a web stream of the body only if it is read
 * (src/api/serve-astro.ts, docs/decisions.md#the-service-endpoints-fast-path).
 */
export interface ApiRequest {
  readonly method: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/**
 * A Response whose body is text already in memory (every JSON answer). The adapter writes `content`
 * to the socket as it is (src/api/serve-astro.ts); the web stream a `Response` body needs costs more
 * CPU than a whole GET of the API, so it is made only if something reads this body as a Response
 * (`astro dev`, which streams it): then a plain Response with the same body stands behind it.
 */
export class InMemoryResponse extends Response {
  readonly content: string;
  #withBody: Response | undefined;
  /** The headers until something reads `headers`: a Headers object costs a validation per name and value. */
  #pendingHeaders: Record<string, string> | undefined;

  constructor(content: string, init: { status: number; headers: Record<string, string> }) {
    super(null, { status: init.status });
    this.content = content;
    this.#pendingHeaders = init.headers;
  }

  override get headers(): Headers {
    const headers = super.headers;
    const pending = this.#pendingHeaders;
    if (pending) {
      this.#pendingHeaders = undefined;
      for (const name in pending) headers.append(name, pending[name]!);
    }
    return headers;
  }

  /** The head as node:http's writeHead takes it: name, value, name, value… (without making `headers` if nothing read it). */
  headPairs(): string[] {
    const pairs: string[] = [];
    const pending = this.#pendingHeaders;
    if (pending) for (const name in pending) pairs.push(name.toLowerCase(), pending[name]!);
    // Iterating Headers yields each Set-Cookie on its own (https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine).
    else for (const [name, value] of super.headers) pairs.push(name, value);
    return pairs;
  }

  /** The same answer as a Response with a streamed body, made once, with the headers as they are then. */
  #streamed(): Response {
    return (this.#withBody ??= new Response(this.content, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#streamed().body;
  }
  override get bodyUsed(): boolean {
    return this.#withBody?.bodyUsed ?? false;
  }
  override text(): Promise<string> {
    return this.#streamed().text();
  }
  override json(): Promise<unknown> {
    return this.#streamed().json();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#streamed().arrayBuffer();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#streamed().bytes();
  }
  override blob(): Promise<Blob> {
    return this.#streamed().blob();
  }
  override formData(): Promise<FormData> {
    return this.#streamed().formData();
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: the body has already been read');
    return new InMemoryResponse(this.content, { status: this.status, headers: Object.fromEntries(this.headers) });
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  // A known length spares chunked encoding; head and body go out in one write (src/api/serve-astro.ts).
  return new InMemoryResponse(text, {
    status,
    headers: { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)), ...headers },
  });
}

export function errorResponse(err: FolioError, headers: Record<string, string> = {}): Response {
  return jsonResponse(err.status, { error: err.code, message: err.message }, { ...headers, ...err.headers });
}

export const MAX_BODY_BYTES = 1024 * 1024;

/** Validates a parsed body with a zod schema, once, at the edge: 400 naming the field at fault. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new FolioError('invalid_request', formatIssues(result.error, 'request body must be a JSON object'));
  return result.data;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => !p.startsWith('charset=') || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

/**
 * Reads and drops the rest of a refused body in the background, so the client can finish sending
 * and read the 413 (closing now would reset the connection and lose the answer). The adapter's
 * own body limit ends this for endless bodies.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const next = (): Promise<void> => reader.read().then(({ done }) => (done ? undefined : next()));
  next().catch(() => {});
}

/** Reads the body as bytes, stopping with 413 as soon as it exceeds `limit`. */
export async function readLimited(request: Pick<ApiRequest, 'headers' | 'body'>, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new FolioError('payload_too_large', `request body must be at most ${limit} bytes`);
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) {
    if (request.body) discardRest(request.body.getReader());
    throw tooLarge();
  }
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      discardRest(reader);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Reads a JSON object body: 415 without a JSON content type, 413 over the limit, 400 for bad JSON. */
export async function readJsonObject(request: ApiRequest, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new FolioError('unsupported_media_type', 'Content-Type header must be application/json');
  }
  return jsonObjectOf(await readLimited(request, limit));
}

/** Like readJsonObject for a route whose body is optional: undefined when none (or only blanks) was sent. */
export async function readOptionalJsonObject(request: ApiRequest, limit = MAX_BODY_BYTES): Promise<Record<string, unknown> | undefined> {
  const bytes = await readLimited(request, limit);
  if (bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) return undefined;
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new FolioError('unsupported_media_type', 'Content-Type header must be application/json');
  }
  return jsonObjectOf(bytes);
}

function jsonObjectOf(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FolioError('invalid_request', 'request body is not valid UTF-8');
  }
  if (text.trim() === '') throw new FolioError('invalid_request', 'request body is empty: send a JSON object');
  let value: unknown;
  try {
    // Keys that could reach an object's prototype are refused outright.
    value = JSON.parse(text, (key, v) => {
      if (FORBIDDEN_KEYS.has(key)) throw new FolioError('invalid_request', `field "${key}" is not allowed`);
      return v;
    });
  } catch (err) {
    if (err instanceof FolioError) throw err;
    throw new FolioError('invalid_request', `request body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FolioError('invalid_request', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

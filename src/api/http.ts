// HTTP conventions of the API (docs/decisions.md#http-conventions): the one error type, JSON responses and body reading.
import type { z } from 'zod';
import { asStorageError, isDomainError, isOutOfSpace, type DomainErrorCode } from '../service/errors.ts';
import { describeIssues } from '../service/project-rules.ts';

export class ApiError extends Error {
  override name = 'ApiError';
  status: number;
  code: string;
  headers?: Record<string, string>;
  constructor(status: number, code: string, message: string, headers?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const DOMAIN_STATUS: Record<DomainErrorCode, number> = {
  invalid_request: 400,
  not_found: 404,
  slug_taken: 409,
  domain_taken: 409,
  name_taken: 409,
  page_exists: 409,
  source_managed: 409,
  insufficient_storage: 507,
  // Well-formed but beyond what the content check can read in its time limit.
  content_too_complex: 422,
  not_promotable: 409,
  not_cancelable: 409,
};

/** Turns any thrown value into an ApiError; unknown errors become a 500 without details. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDomainError(err)) return new ApiError(DOMAIN_STATUS[err.code], err.code, err.message);
  // A full disk met on a path that did not name what it was storing: still 507, not a bug.
  if (isOutOfSpace(err)) return toApiError(asStorageError(err, 'the change'));
  console.error(err);
  return new ApiError(500, 'internal_error', 'internal error: the server could not handle the request');
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const bytes = Buffer.from(JSON.stringify(body));
  // A known length spares chunked encoding (one write to the socket instead of two).
  return new Response(bytes, {
    status,
    headers: { 'content-type': JSON_TYPE, 'content-length': String(bytes.byteLength), ...headers },
  });
}

export function errorResponse(err: ApiError, headers: Record<string, string> = {}): Response {
  return jsonResponse(err.status, { error: err.code, message: err.message }, { ...headers, ...err.headers });
}

export const MAX_BODY_BYTES = 1024 * 1024;

/** Validates a parsed body with a zod schema, once, at the edge: 400 naming the field at fault. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(400, 'invalid_request', describeIssues(result.error));
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
export async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new ApiError(413, 'payload_too_large', `request body must be at most ${limit} bytes`);
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
export async function readJsonObject(request: Request, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ApiError(415, 'unsupported_media_type', 'Content-Type header must be application/json');
  }
  const bytes = await readLimited(request, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'invalid_request', 'request body is not valid UTF-8');
  }
  if (text.trim() === '') throw new ApiError(400, 'invalid_request', 'request body is empty: send a JSON object');
  let value: unknown;
  try {
    // Keys that could reach an object's prototype are refused outright.
    value = JSON.parse(text, (key, v) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ApiError(400, 'invalid_request', `field "${key}" is not allowed`);
      return v;
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(400, 'invalid_request', `request body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'invalid_request', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

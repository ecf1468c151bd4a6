// The one check of API answers against src/api/openapi.json. The shared HTTP helpers (server.ts)
// run it on every /v1, /healthz and /internal/tls-allowed answer a test receives: the operation is found by method and
// path template, the status must be documented for it (or, for a request matching no operation,
// in the document's `x-unmatched-requests`), the body must match the schema of its status and
// media type, and the documented required headers must be there with valid values.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { OPERATION_METHODS } from '../../src/site/openapi/model.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The operation keys of an OpenAPI path item, as the site's OpenAPI reader knows them. */
export const operationKeys: readonly string[] = OPERATION_METHODS;

const DOC_FILE = new URL('../../src/api/openapi.json', import.meta.url);

let documentCache: Json | undefined;
let ajvCache: Ajv2020 | undefined;
// Compiled once per process: the document does not change while tests run.
const validators = new Map<string, ValidateFunction>();

/** src/api/openapi.json, parsed once. */
export function apiDocument(): Json {
  documentCache ??= JSON.parse(readFileSync(DOC_FILE, 'utf8')) as Json;
  return documentCache;
}

function ajv(): Ajv2020 {
  if (!ajvCache) {
    const addFormats = addFormatsModule as unknown as (instance: Ajv2020) => Ajv2020;
    ajvCache = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajvCache.addSchema(apiDocument(), 'folio');
  }
  return ajvCache;
}

/** A JSON pointer (`/components/schemas/Project`) from its unescaped parts. */
export function pointer(...parts: string[]): string {
  return parts.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Validates a value against the schema at a JSON pointer of the document; returns ajv's errors. */
export function schemaErrors(schemaPointer: string, value: unknown): ErrorObject[] {
  let validate = validators.get(schemaPointer);
  if (!validate) {
    const fragment = schemaPointer.split('/').map(encodeURIComponent).join('/');
    validate = ajv().compile({ $ref: `folio#${fragment}` });
    validators.set(schemaPointer, validate);
  }
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** Follows a local `$ref` (one level, as the document uses them); returns the object and its pointer. */
function resolve(object: Json, at: string): { object: Json; at: string } {
  const ref = object.$ref as string | undefined;
  if (!ref) return { object, at };
  const target = ref.slice(1);
  const found = target.split('/').slice(1).reduce<Json>((node, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], apiDocument());
  return { object: found, at: target };
}

interface PathTemplate {
  template: string;
  segments: string[];
  /** The last parameter takes the rest of the path (`x-multi-segment`), as a page path does. */
  restOfPath: boolean;
  item: Json;
}

let templatesCache: PathTemplate[] | undefined;

function templates(): PathTemplate[] {
  templatesCache ??= Object.entries(apiDocument().paths as Json).map(([template, item]) => {
    const segments = template.split('/').slice(1);
    const last = /^\{(.+)\}$/.exec(segments.at(-1) ?? '')?.[1];
    const parameters = [...(item.parameters ?? []), ...operationKeys.flatMap((m) => item[m]?.parameters ?? [])];
    const restOfPath = parameters.some((p: Json) => {
      const { object } = resolve(p, '');
      return object.in === 'path' && object.name === last && object['x-multi-segment'] === true;
    });
    return { template, segments, restOfPath, item };
  });
  return templatesCache;
}

function matches(t: PathTemplate, parts: string[]): boolean {
  const fixed = t.restOfPath ? t.segments.length - 1 : t.segments.length;
  if (t.restOfPath ? parts.length < t.segments.length : parts.length !== t.segments.length) return false;
  for (let i = 0; i < fixed; i++) {
    const segment = t.segments[i];
    if (segment.startsWith('{') ? parts[i] === '' : segment !== parts[i]) return false;
  }
  return !t.restOfPath || parts.slice(fixed).join('/') !== '';
}

/** The document's path templates that match a request path (as the server's router splits it). */
export function matchingTemplates(pathname: string): PathTemplate[] {
  let parts: string[];
  try {
    parts = pathname.replace(/\/$/, '').split('/').slice(1).map(decodeURIComponent);
  } catch {
    return [];
  }
  return templates().filter((t) => matches(t, parts));
}

/** Whether the document governs answers to this path: the /v1 API, the health check, the TLS check and the push webhook. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/') || pathname === '/healthz' || pathname === '/internal/tls-allowed' || pathname.startsWith('/hooks/git/');
}

export interface ApiAnswer {
  method: string;
  /** The request target as sent, query string included. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

interface Documented {
  /** How the answer is named in messages: `GET /v1/projects/{id}`, or the unmatched case. */
  operation: string;
  responses: Json;
  responsesAt: string;
  /** For a path without the request's method: the methods the document gives the path. */
  allow?: string[];
}

function documentedResponses(method: string, pathname: string): Documented {
  const wanted = method === 'HEAD' ? 'get' : method.toLowerCase();
  const found = matchingTemplates(pathname);
  const withMethod = found.find((t) => t.item[wanted]);
  if (withMethod) {
    return {
      operation: `${method} ${withMethod.template}`,
      responses: withMethod.item[wanted].responses,
      responsesAt: pointer('paths', withMethod.template, wanted, 'responses'),
    };
  }
  const unmatched = found.length ? 'wrong-method' : 'unknown-path';
  // A path may say how it answers other methods (/healthz, outside /v1); else the document's rule holds.
  const own = found.find((t) => t.item['x-unmatched-requests']?.[unmatched]);
  return {
    operation: `${method} on ${found.length ? `${found[0].template} (a method the path does not have)` : 'a path the document does not have'}`,
    responses: (own?.item ?? apiDocument())['x-unmatched-requests'][unmatched],
    responsesAt: own ? pointer('paths', own.template, 'x-unmatched-requests', unmatched) : pointer('x-unmatched-requests', unmatched),
    allow: found.length ? [...new Set(found.flatMap((t) => Object.keys(t.item).filter((m) => operationKeys.includes(m)).map((m) => m.toUpperCase())))] : undefined,
  };
}

function headerProblems(response: Json, at: string, headers: Headers, allow: string[] | undefined): string[] {
  const problems: string[] = [];
  for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
    const { object, at: headerAt } = resolve(header, `${at}${pointer('headers', name)}`);
    const value = headers.get(name);
    if (value === null) {
      if (object.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    const numeric = ['integer', 'number'].includes(object.schema?.type) && /^-?\d+(\.\d+)?$/.test(value);
    const errors = schemaErrors(`${headerAt}/schema`, numeric ? Number(value) : value);
    if (errors.length) problems.push(`header ${name}: ${JSON.stringify(value)} does not match its schema: ${JSON.stringify(errors)}`);
  }
  if (allow && headers.get('allow') !== null) {
    const sent = headers.get('allow')!.split(',').map((m) => m.trim()).sort();
    if (sent.join(', ') !== [...allow].sort().join(', ')) problems.push(`Allow is "${headers.get('allow')}" but the document gives the path ${allow.join(', ')}`);
  }
  return problems;
}

function bodyProblems(response: Json, at: string, answer: ApiAnswer): string[] {
  if (answer.method === 'HEAD') return [];
  const content = response.content as Json | undefined;
  if (!content) return answer.text === '' ? [] : [`the document gives no body, but the answer has one: ${answer.text.slice(0, 200)}`];
  const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!content[mediaType]) return [`Content-Type "${answer.headers.get('content-type')}" is not documented (documented: ${Object.keys(content).join(', ')})`];
  let value: unknown = answer.text;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      value = JSON.parse(answer.text);
    } catch {
      return [`the body is not JSON: ${answer.text.slice(0, 200)}`];
    }
  }
  const errors = schemaErrors(`${at}${pointer('content', mediaType, 'schema')}`, value);
  return errors.length ? [`the body does not match the schema: ${JSON.stringify(errors, null, 1)}\nbody: ${answer.text.slice(0, 500)}`] : [];
}

/** The ways an answer departs from the document; empty when it is documented (or not an API path). */
export function contractProblems(answer: ApiAnswer): string[] {
  const pathname = new URL(answer.path, 'http://folio.test').pathname;
  if (!isApiPath(pathname)) return [];
  const documented = documentedResponses(answer.method, pathname);
  const status = String(answer.status);
  const listed = documented.responses[status] ?? documented.responses[`${status[0]}XX`] ?? documented.responses.default;
  if (!listed) {
    return [`status ${status} is not documented for ${documented.operation} (documented: ${Object.keys(documented.responses).join(', ')}); body: ${answer.text.slice(0, 300)}`];
  }
  const { object: response, at } = resolve(listed, `${documented.responsesAt}${pointer(status)}`);
  return [...headerProblems(response, at, answer.headers, documented.allow), ...bodyProblems(response, at, answer)];
}

const violations: string[] = [];

/**
 * Fails unless the answer is documented. The failure is also kept for test/helpers/contract-setup.ts,
 * so a test that catches errors around its requests (a server killed mid-burst) still fails.
 */
export function expectDocumented(answer: ApiAnswer): void {
  const problems = contractProblems(answer);
  if (!problems.length) return;
  const message = `${answer.method} ${answer.path} answered ${answer.status}, which src/api/openapi.json does not describe:\n- ${problems.join('\n- ')}`;
  violations.push(message);
  throw new Error(message);
}

/** The undocumented answers met since the last call. */
export function takeViolations(): string[] {
  return violations.splice(0);
}

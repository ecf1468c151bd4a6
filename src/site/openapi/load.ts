// Reads, validates and dereferences the OpenAPI file a content root names. @readme/openapi-parser
// does the parsing, validation and $ref resolution; this module confines it to the content root
// (no network, no files outside the root) and turns its errors into "file:line:column at pointer".
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dereference, validate } from '@readme/openapi-parser';
import type { ParserOptions } from '@readme/openapi-parser';
import { OPENAPI_DIGEST_PREFIX } from '../content-check/checked-files.ts';
import { OpenApiError } from './errors.ts';
import { openApiRelativePath } from '../config/docs-config.ts';
import { findRefNamedIn, findValuesNamedIn, locateLine, readSource, toPointer } from './locate.ts';
import type { Source } from './locate.ts';

export interface LoadedDocument {
  /** The document with every $ref replaced by its target (circular references become object cycles). */
  document: Record<string, unknown>;
  /** Dereferenced object → the $ref it came from, for naming schemas and showing recursion. */
  refNames: WeakMap<object, string>;
  /** The file's path relative to the content root, as named in messages. */
  file: string;
  /** Things built around rather than refused (a 3.0 document using 3.1 forms), one line each. */
  warnings: string[];
  /**
   * The digest of the files this document was read from, when it passed validation as written
   * (not in the lenient reading): the check before a build hands it to the build, which then
   * resolves that exact text without validating it again (checked-files.ts).
   */
  digest?: string;
  /** Resolved without validation: its digest was among `checked` (LoadOptions). */
  validatedBefore?: true;
}

export interface LoadOptions {
  /** The check before a build: validate only, without resolving $refs into the document (it is then the file as written). */
  validateOnly?: boolean;
  /** Digests of documents the check before this build validated (checked-files.ts): those are not validated again. */
  checked?: ReadonlySet<string>;
}

type HttpOptions = NonNullable<ParserOptions['resolve']>['http'];
const MAX_REPORTED_ERRORS = 5;

/**
 * Loads `openapiPath` (relative to `contentRoot`), or throws an OpenApiError. `validateOnly` (the
 * check before a build) skips resolving $refs into the document: `document` is then the file as
 * written.
 */
export async function loadOpenApiDocument(contentRoot: string, openapiPath: string, { validateOnly = false, checked }: LoadOptions = {}): Promise<LoadedDocument> {
  const rootReal = await realpath(contentRoot);
  const absolute = await resolveInsideRoot(rootReal, openapiPath);
  const file = relative(rootReal, absolute).split(sep).join('/');
  const source = readSource(file, await readFile(absolute, 'utf8'), extname(absolute).toLowerCase() === '.json');

  const version = (source.raw as { openapi?: unknown; swagger?: unknown } | null) ?? {};
  if (typeof version.openapi !== 'string' || !/^3\.[01]\./.test(version.openapi)) {
    const found = version.openapi ?? (version.swagger ? `Swagger ${String(version.swagger)}` : 'no "openapi" field');
    throw new OpenApiError(file, `${source.locate(['openapi']) ?? file}: only OpenAPI 3.0 and 3.1 are supported (found ${String(found)})`);
  }
  const refErrors: OpenApiError[] = [];
  const reads = new Map<string, Buffer | string>();
  let options = parserOptions(rootReal, file, refErrors, undefined, reads);
  const refNames = new WeakMap<object, string>();
  const resolved = () =>
    runParser(source, refErrors, () =>
      dereference(absolute, {
        ...options,
        dereference: { circular: true, onDereference: (ref, value) => refNames.set(value, ref) },
      }),
    ) as Promise<unknown> as Promise<Record<string, unknown>>;
  let early: Record<string, unknown> | undefined;
  if (!validateOnly && checked?.size) {
    // Validating a large document costs more than resolving it: text the check before this build
    // validated (the same files, byte for byte) is only resolved. Anything else is validated below.
    early = await resolved().catch(() => undefined);
    const digest = early && readsDigest(reads);
    if (early && digest && checked.has(digest)) return { document: early, refNames, file, warnings: [], digest, validatedBefore: true };
    reads.clear();
    refErrors.length = 0;
  }
  const warnings: string[] = [];
  let result = await runParser(source, refErrors, () => validate(absolute, options));
  const digest = result.valid ? readsDigest(reads) : undefined;
  // Mintlify builds 3.0 documents that use 3.1 forms (type arrays, const, examples): so does Folio,
  // reading the document as 3.1, with a warning naming a place that needs the newer version.
  const place = !result.valid && version.openapi.startsWith('3.0.') ? find31Form(source.raw) : undefined;
  if (place) {
    const lenient = parserOptions(rootReal, file, refErrors, { root: absolute, raw: { ...(source.raw as object), openapi: '3.1.0' } });
    const retried = await runParser(source, refErrors, () => validate(absolute, lenient)).catch(() => undefined);
    if (retried?.valid) {
      const where = ` (${place.form} at ${source.locate(place.path) ?? file} ${toPointer(place.path)})`;
      warnings.push(`${file} says OpenAPI ${version.openapi} but uses OpenAPI 3.1 forms${where}: read as 3.1; write "openapi: 3.1.0" to make this explicit`);
      options = lenient;
      result = retried;
    }
  }
  if (!result.valid) {
    const messages = result.errors.map((error) => error.message);
    const details = await describeSchemaErrors(absolute, options, messages, source);
    const more = messages.length - details.length + result.additionalErrors;
    const tail = more > 0 ? `\n  …and ${more} more` : '';
    throw new OpenApiError(file, `Invalid OpenAPI document ${file}:\n  ${details.join('\n  ')}${tail}`);
  }

  if (validateOnly) return { document: source.raw as Record<string, unknown>, refNames, file, warnings, ...(digest ? { digest } : {}) };
  // Resolved before validation with the same options: the same document.
  return { document: early && !warnings.length ? early : await resolved(), refNames, file, warnings };
}

/** One digest of the files a parse read (paths relative to the content root, and their bytes). */
function readsDigest(reads: Map<string, Buffer | string>): string {
  const hash = createHash('sha256').update('openapi\0');
  for (const [file, text] of [...reads].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(`${file}\0${text.length}\0`).update(text).update('\0');
  return `${OPENAPI_DIGEST_PREFIX}${hash.digest('hex')}`;
}

/** The first schema in the document written with a form OpenAPI 3.0 does not have. */
function find31Form(raw: unknown): { form: string; path: string[] } | undefined {
  const search = (node: unknown, path: string[]): { form: string; path: string[] } | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.type)) return { form: 'a "type" list', path: [...path, 'type'] };
      if ('const' in record && path.at(-1) !== 'properties') return { form: '"const"', path: [...path, 'const'] };
      if (Array.isArray(record.examples) && path.at(-1) !== 'properties') return { form: 'an "examples" list in a schema', path: [...path, 'examples'] };
    }
    for (const [key, child] of Object.entries(node)) {
      const hit = search(child, [...path, key]);
      if (hit) return hit;
    }
    return undefined;
  };
  return search(raw, []);
}

async function resolveInsideRoot(rootReal: string, openapiPath: string): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(openapiPath)) {
    throw new OpenApiError(openapiPath, `OpenAPI file "${openapiPath}": builds never use the network, so a spec cannot be read from a URL; save it in the content root and name its path (for example "openapi.yaml")`);
  }
  const relativePath = openApiRelativePath(openapiPath);
  const candidate = resolve(rootReal, relativePath);
  if (relativePath === '' || openapiPath.includes('\0') || !isInside(rootReal, candidate)) {
    throw new OpenApiError(openapiPath, `OpenAPI file "${openapiPath}" is outside the content root`);
  }
  const real = await realpath(candidate).catch(() => undefined);
  if (!real) throw new OpenApiError(openapiPath, `OpenAPI file "${openapiPath}" not found in the content root`, { missing: true });
  if (!isInside(rootReal, real)) {
    throw new OpenApiError(openapiPath, `OpenAPI file "${openapiPath}" is outside the content root (symbolic link)`);
  }
  if (!(await stat(real)).isFile()) throw new OpenApiError(openapiPath, `OpenAPI file "${openapiPath}" is not a file`);
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

// External $refs may name other files inside the content root; anything else is refused. Our
// errors are collected because the library wraps whatever a resolver throws into its own message.
// `replace` hands the parser another text for the document itself (the lenient 3.0 reading).
// `reads` records each file read (relative path → bytes), for the digest of what was validated.
function parserOptions(rootReal: string, file: string, refErrors: OpenApiError[], replace?: { root: string; raw: unknown }, reads?: Map<string, Buffer | string>): ParserOptions {
  const fileResolver = {
    order: 1,
    canRead: true,
    async read(target: { url: string }): Promise<Buffer | string> {
      if (/^(?!file:)[a-z][a-z0-9+.-]*:/i.test(target.url)) {
        return refused(`${file}: $ref to the URL "${target.url}" is not allowed, only files inside the content root`);
      }
      const path = target.url.startsWith('file:') ? fileURLToPath(target.url) : target.url;
      const real = await realpath(path).catch(() => undefined);
      if (real && replace && real === replace.root) return JSON.stringify(replace.raw);
      if (real && isInside(rootReal, real)) {
        const bytes = await readFile(real);
        reads?.set(relative(rootReal, real).split(sep).join('/'), bytes);
        return bytes;
      }
      const shown = relative(rootReal, path).split(sep).join('/');
      const reason = real ? 'points outside the content root' : 'names a file that does not exist';
      return refused(`${file}: $ref to "${shown}" ${reason}`);
    },
  };
  const refused = (message: string): never => {
    const error = new OpenApiError(file, message);
    refErrors.push(error);
    throw error;
  };
  return {
    // Typed as a boolean, but the library also takes a resolver object here (it passes it on to
    // json-schema-ref-parser). `canRead: false` switches its HTTP resolver off: no network $refs.
    resolve: { file: fileResolver as unknown as boolean, http: { canRead: false } as HttpOptions },
  };
}

async function runParser<T>(source: Source, refErrors: OpenApiError[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw explainParserError(source, error, refErrors);
  }
}

function explainParserError(source: Source, error: unknown, refErrors: OpenApiError[]): OpenApiError {
  if (error instanceof OpenApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const own = refErrors[0]?.message;
  return new OpenApiError(source.file, withRefLocation(source, own ?? `${source.file}: ${message}`));
}

/** Appends where the $ref or the values a message talks about are written, when it names some. */
function withRefLocation(source: Source, message: string): string {
  const refPath = findRefNamedIn(source.raw, message);
  if (refPath) return `${message} (the $ref at ${source.locate(refPath) ?? source.file} ${toPointer(refPath)})`;
  const places = findValuesNamedIn(source.raw, message).slice(0, 3);
  if (places.length === 0) return message;
  return `${message} (at ${places.map((path) => `${source.locate(path) ?? source.file} ${toPointer(path)}`).join(', ')})`;
}

// The library reports schema errors with a code frame of its own pretty-printed, dereferenced
// JSON. That frame's line numbers mean nothing to the author, so translate them into a JSON
// pointer and, where the pointer exists in the author's file, a line and column.
async function describeSchemaErrors(absolute: string, options: ParserOptions, messages: string[], source: Source): Promise<string[]> {
  const framed = (message: string) => /^>\s*(\d+) \|/m.exec(message);
  const shown = messages.some(framed)
    ? ((await dereference(absolute, { ...options, dereference: { circular: 'ignore' } }).catch(() => undefined)) as unknown)
    : undefined;
  return messages.slice(0, MAX_REPORTED_ERRORS).map((message) => {
    const headline = message.split('\n\n')[0].replace(/\s*\n\s*/g, ' ');
    const frameLine = framed(message);
    const path = frameLine && shown !== undefined ? locateLine(shown, Number(frameLine[1])) : undefined;
    if (!path) return withRefLocation(source, `${source.file}: ${headline}`);
    return `${source.locate(path) ?? source.file} at ${toPointer(path)}: ${headline}`;
  });
}

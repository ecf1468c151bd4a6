// Every way a content root attaches OpenAPI, as on Mintlify (docs/decisions.md#openapi-reference-pages):
// docs.json `api.openapi` (and Folio's older top-level `openapi`), `openapi` on navigation entries,
// `openapi:` frontmatter naming one operation, and the OpenAPI files found in the content root
// when frontmatter names no file. Builds never use the network: a URL is refused.
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DocsConfig, OpenApiSourceConfig } from '../config/docs-config.ts';
import { openApiRelativePath } from '../config/docs-config.ts';
import { OpenApiError } from './errors.ts';
import { contentLayout, mintlifyIgnore } from '../layout.ts';
import { loadOpenApiDocument } from './load.ts';
import type { LoadedDocument, LoadOptions } from './load.ts';
import { OPERATION_METHODS } from './model.ts';
import type { OperationMethod } from './model.ts';
import { DEFAULT_DIRECTORY, findOperations, operationKey } from './operations.ts';

/** Spec files and the folder their generated pages go to. */
export interface OpenApiSource {
  files: string[];
  directory: string;
}

/** The files and directory of a docs.json `openapi` value (a path, a list, or `{source, directory}`). */
export function openApiSource(value: OpenApiSourceConfig): OpenApiSource {
  if (typeof value === 'string') return { files: [value], directory: DEFAULT_DIRECTORY };
  if (Array.isArray(value)) return { files: value, directory: DEFAULT_DIRECTORY };
  return { files: [value.source], directory: value.directory?.replace(/^\/+|\/+$/g, '') || DEFAULT_DIRECTORY };
}

/** The site-wide specs of docs.json: `api.openapi`, then Folio's older top-level `openapi`. */
export function docsJsonSources(config: DocsConfig): OpenApiSource[] {
  const sources: OpenApiSource[] = [];
  if (config.api?.openapi) sources.push(openApiSource(config.api.openapi));
  if (config.openapi) sources.push(openApiSource(config.openapi));
  return sources;
}

/** Every navigation entry of docs.json (tab, anchor, group, version, language, …) that names `openapi`. */
export function navigationSources(config: DocsConfig): Array<{ entry: Record<string, unknown>; source: OpenApiSource }> {
  const found: Array<{ entry: Record<string, unknown>; source: OpenApiSource }> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const entry = node as Record<string, unknown>;
    if (entry.openapi !== undefined && (typeof entry.openapi === 'string' || typeof entry.openapi === 'object')) {
      found.push({ entry, source: openApiSource(entry.openapi as OpenApiSourceConfig) });
    }
    for (const [key, child] of Object.entries(entry)) if (key !== 'openapi') walk(child);
  };
  walk(config.navigation);
  return found;
}

/** An operation named by frontmatter or a navigation entry. */
export interface OperationReference {
  /** The spec file, when the reference names one. */
  file?: string;
  method?: OperationMethod;
  apiPath?: string;
  webhook?: string;
  /** `get /users` or `webhook user.created` (operations.ts operationKey). */
  key: string;
}

/**
 * Parses `GET /users/{id}`, `openapi.yaml GET /users/{id}`, `webhook user.created` or
 * `openapi.yaml WEBHOOK user.created` (the path or event may be quoted: `GET '/users/{id}'`);
 * undefined when the text is none of these.
 */
export function parseOperationReference(text: string): OperationReference | undefined {
  const match = /^\s*(?:(\S+)\s+)?([A-Za-z]+)\s+(\S.*?)\s*$/.exec(text);
  if (!match) return undefined;
  const [, file, verb, quoted] = match;
  // Generated Mintlify pages often quote the path (`openapi: "GET '/v1/users/{id}'"`); the quotes
  // are not part of it.
  const target = /^(['"`])(.+)\1$/.exec(quoted)?.[2] ?? quoted;
  const lower = verb.toLowerCase();
  if (lower === 'webhook') return { ...(file ? { file } : {}), webhook: target, key: `webhook ${target}` };
  if (!(OPERATION_METHODS as readonly string[]).includes(lower) || !target.startsWith('/')) return undefined;
  return { ...(file ? { file } : {}), method: lower as OperationMethod, apiPath: target, key: `${lower} ${target}` };
}

/** The warning of an `openapi:` frontmatter that names no operation (the page shows its own content). */
export function unreadableReference(value: string): string {
  return `openapi: "${value}" names no operation (write "GET /users/{id}", "openapi.yaml GET /users/{id}" or "webhook user.created"): the page shows its own content`;
}

// Mintlify finds spec files anywhere in the repository. Folio looks at JSON and YAML files outside
// dependency and hidden folders, within limits, and reads only their first bytes to decide.
const SPEC_FILE = /\.(json|ya?ml)$/i;
const SKIPPED_DIRS = new Set(['node_modules', '_snippets']);
const MAX_FILES_LOOKED_AT = 5000;
const SNIFF_BYTES = 4096;
const OPENAPI_FIELD = /^\s*(?:\{\s*)?["']?openapi["']?\s*:\s*["']?3\./m;

/**
 * The OpenAPI files of a content root (relative paths, sorted), found without being named. In
 * Mintlify's layout, what Mintlify ignores (its defaults and `.mintignore`) and `snippets/` are
 * left out too, as Mintlify leaves them out of a build.
 */
export async function discoverSpecFiles(contentRoot: string): Promise<string[]> {
  const found: string[] = [];
  let looked = 0;
  const layout = contentLayout(contentRoot);
  const ignored = layout.kind === 'mintlify' ? mintlifyIgnore(contentRoot) : undefined;
  const walk = async (rel: string) => {
    const entries = await readdir(path.join(contentRoot, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || looked >= MAX_FILES_LOOKED_AT) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (ignored?.ignores(entry.isDirectory() ? `${child}/` : child) || child === layout.snippetsDir) continue;
      // Dirents have lstat semantics: links are never followed.
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await walk(child);
      else if (entry.isFile() && SPEC_FILE.test(entry.name) && child !== 'docs.json') {
        looked += 1;
        if (await looksLikeOpenApi(path.join(contentRoot, child))) found.push(child);
      }
    }
  };
  await walk('');
  return found;
}

async function looksLikeOpenApi(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return OPENAPI_FIELD.test(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

/**
 * Loads each spec file once per build (frontmatter, navigation and docs.json may all name the same
 * one), by its path relative to the content root.
 */
export function specLoader(contentRoot: string, options: LoadOptions = {}): (file: string) => Promise<LoadedDocument> {
  const loaded = new Map<string, Promise<LoadedDocument>>();
  return (file) => {
    const key = openApiRelativePath(file);
    let hit = loaded.get(key);
    if (!hit) {
      hit = loadOpenApiDocument(contentRoot, file, options);
      loaded.set(key, hit);
    }
    return hit;
  };
}

/** The spec an `openapi:` frontmatter resolves to, and what Folio did that the page does not say. */
export interface ReferencedSpec {
  /** Undefined when no spec has the operation: the page then shows its own content. */
  loaded?: LoadedDocument;
  /** A warning: the spec was found elsewhere than at the path named, or not at all. */
  warning?: string;
}

/**
 * The spec holding `reference`, as Mintlify finds it (https://mintlify.com/docs/api-playground/openapi-setup:
 * the path is needed only to choose among several specs, the one spec of a repository is found
 * without it). In order: the file at the path named, from the content root (a leading `/` or
 * not); the same path from the page's folder (`page`, relative to the root); a spec of the same
 * file name anywhere in the root (`/fr/openapi.json` of a translated page, when the translations
 * share the root's spec); then the first of `candidates` (docs.json's, the navigation's, those
 * found in the root) that has the operation. A named file that is there but broken is an error
 * (its problems are the file's); one that is there without the operation, or a spec found nowhere,
 * is a warning, and the page shows its own content.
 */
export async function findReferencedSpec(
  reference: OperationReference,
  page: string,
  candidates: () => Promise<string[]>,
  load: (file: string) => Promise<LoadedDocument>,
): Promise<ReferencedSpec> {
  const operation = describe(reference);
  const absent = (error: unknown): undefined => {
    if (error instanceof OpenApiError && error.missing) return undefined;
    throw error;
  };
  const named = reference.file;
  /** The file named, found, but without the operation (a translation's copy that lags behind the root's). */
  let lacking: string | undefined;
  if (named && !isUrl(named)) {
    const fromRoot = openApiRelativePath(named);
    const fromPage = path.posix.join(path.posix.dirname(page), named);
    for (const file of fromPage === fromRoot || named.startsWith('/') ? [fromRoot] : [fromRoot, fromPage]) {
      const loaded = await load(file).catch(absent);
      if (!loaded) continue;
      if (hasOperation(loaded, reference.key)) return file === fromRoot ? { loaded } : { loaded, warning: `openapi: "${named}" is read from the page's folder: ${loaded.file} (from the content root, write "/${loaded.file}")` };
      lacking = loaded.file;
      break;
    }
  }
  // A candidate that cannot be used (a URL, a broken file) is reported where it is named, not here.
  const usable: LoadedDocument[] = [];
  for (const file of (await candidates()).filter((candidate) => !isUrl(candidate))) {
    const loaded = await load(file).catch((error: unknown) => {
      if (error instanceof OpenApiError) return undefined;
      throw error;
    });
    if (loaded && hasOperation(loaded, reference.key)) usable.push(loaded);
  }
  const baseName = named && path.posix.basename(named);
  const found = usable.find((loaded) => path.posix.basename(loaded.file) === baseName) ?? usable[0];
  if (!named) return found ? { loaded: found } : { warning: `openapi: no OpenAPI file of the content root has ${operation}: the page shows its own content` };
  const notThere = lacking ? `${lacking} has no operation ${operation}` : `no file "${named}"`;
  if (found) return { loaded: found, warning: `openapi: ${notThere}: ${found.file}, which has ${lacking ? 'it' : operation}, is used` };
  return { warning: lacking ? `openapi: ${notThere}, nor has any other OpenAPI file of the content root: the page shows its own content` : `openapi: ${notThere}, and no OpenAPI file of the content root has ${operation}: the page shows its own content` };
}

function hasOperation(loaded: LoadedDocument, key: string): boolean {
  return findOperations(loaded.document).some((found) => operationKey(found) === key);
}

function describe(reference: OperationReference): string {
  return reference.webhook !== undefined ? `webhook "${reference.webhook}"` : `${reference.method!.toUpperCase()} ${reference.apiPath}`;
}

/** True when `file` names something outside the network-free world of a build. */
export function isUrl(file: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(file);
}

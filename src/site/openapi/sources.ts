// Every way a content root attaches OpenAPI, as on Mintlify (docs/decisions.md#openapi-reference-pages):
// docs.json `api.openapi` (and Folio's older top-level `openapi`), `openapi` on navigation entries,
// `openapi:` frontmatter naming one operation, and the OpenAPI files found in the content root
// when frontmatter names no file. Builds never use the network: a URL is refused.
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DocsConfig, OpenApiSourceConfig } from '../docs-config.ts';
import { openApiRelativePath } from '../docs-config.ts';
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

/**
 * The spec holding `reference`: the file it names, else the first of `candidates` (docs.json's,
 * then the navigation's, then those found in the content root) that has the operation.
 */
export async function findReferencedSpec(
  reference: OperationReference,
  candidates: () => Promise<string[]>,
  load: (file: string) => Promise<LoadedDocument>,
  where: string,
): Promise<LoadedDocument> {
  if (reference.file) {
    const loaded = await load(reference.file);
    if (!hasOperation(loaded, reference.key)) throw new OpenApiError(loaded.file, `${where}: ${loaded.file} has no operation ${describe(reference)}`);
    return loaded;
  }
  // A candidate that cannot be used (a URL, a broken file) is reported where it is named, not here.
  const files: string[] = [];
  for (const file of (await candidates()).filter((candidate) => !isUrl(candidate))) {
    const loaded = await load(file).catch((error: unknown) => {
      if (error instanceof OpenApiError) return undefined;
      throw error;
    });
    if (!loaded) continue;
    if (hasOperation(loaded, reference.key)) return loaded;
    files.push(loaded.file);
  }
  const looked = files.length ? `none of ${files.join(', ')} has it` : 'no usable OpenAPI file was found in the content root';
  throw new OpenApiError(where, `${where}: no operation ${describe(reference)} (${looked})`);
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

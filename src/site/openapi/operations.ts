// A dereferenced OpenAPI document → one page model per operation, and the navigation groups.
import { codeSamples } from './code-samples.ts';
import { curlCommand } from './curl.ts';
import type { CurlInput } from './curl.ts';
import { mediaTypeExamples, sampleOf } from './example.ts';
import { OPERATION_METHODS, PARAMETER_LOCATIONS } from './model.ts';
import type {
  HeaderModel,
  OperationMethod,
  JsonValue,
  MediaTypeModel,
  OperationGroup,
  OpenApiPages,
  OperationPageModel,
  ParameterLocation,
  ParameterModel,
  PathSegment,
  PlaygroundAuth,
  PlaygroundField,
  PlaygroundModel,
  RequestBodyModel,
  ResponseModel,
  SecurityModel,
} from './model.ts';
import { isSchema, schemaTree } from './schema-tree.ts';
import type { RefNames, Schema } from './schema-tree.ts';

/** Navigation label of operations without a tag, unless `untaggedGroup` says otherwise. */
export const UNTAGGED_GROUP = 'Other';

/** Where generated pages go unless docs.json names a `directory` (as on Mintlify). */
export const DEFAULT_DIRECTORY = 'api-reference';

export type PlaygroundDisplay = 'interactive' | 'simple' | 'none';

export interface BuildOptions {
  /** Path prefix of every generated page (Mintlify's `directory`), e.g. `api-reference`. */
  prefix: string;
  /** Navigation label of operations without a tag. */
  untaggedGroup?: string;
  /** The OpenAPI file, relative to the content root, recorded on each page. */
  file?: string;
  /** docs.json `api.playground.display` (default interactive); `x-mint.metadata.playground` overrides it per operation. */
  playground?: PlaygroundDisplay;
  /** docs.json `api.examples.languages`: which generated request examples, in which order. */
  languages?: string[];
  /** docs.json `api.examples.defaults`: request examples show the required parameters only (default) or all. */
  exampleParameters?: 'required' | 'all';
  /** docs.json `api.examples.prefill`: the playground starts filled with the author's examples (default: defaults only, examples as placeholders). */
  prefill?: boolean;
  /** Only these operations (`operationKey`), in this order; all when absent. */
  only?: string[];
}

/** An operation found in a document: under `paths`, or a webhook. */
export interface FoundOperation {
  method: OperationMethod;
  apiPath: string;
  pathItem: Schema;
  operation: Schema;
  /** The webhook's name, for an operation under `webhooks`. */
  webhook?: string;
}

/** `get /users/{id}` or `webhook user.created`: how frontmatter and navigation name an operation. */
export function operationKey(found: { method: string; apiPath: string; webhook?: string }): string {
  return found.webhook !== undefined ? `webhook ${found.webhook}` : `${found.method.toLowerCase()} ${found.apiPath}`;
}

/**
 * Builds the page models and navigation groups of a dereferenced document. `taken` holds page
 * paths already used (by another OpenAPI file of the same site); new ones are added to it.
 */
export function buildOperationPages(document: Schema, refNames: RefNames, options: BuildOptions, taken = new Set<string>()): OpenApiPages {
  const prefix = options.prefix.replace(/^\/+|\/+$/g, '').toLowerCase();
  const untagged = options.untaggedGroup ?? UNTAGGED_GROUP;
  // x-excluded operations get no page, unless a page or navigation entry names them.
  let found = findOperations(document);
  if (options.only) {
    const byKey = new Map(found.map((operation) => [operationKey(operation), operation]));
    found = options.only.flatMap((key) => byKey.get(key) ?? []);
  } else {
    found = found.filter((operation) => operation.operation['x-excluded'] !== true);
  }
  const pages = found.map((operation) => {
    const path = uniquePath(mintlifyPath(operation, prefix), taken);
    return operationPage(document, refNames, operation, { path, slug: path.split('/').pop()!, untagged }, options);
  });
  return { pages, groups: navigationGroups(document, pages, untagged) };
}

/** Every operation of `paths` and `webhooks`, in document order (x-excluded ones included). */
export function findOperations(document: Schema): FoundOperation[] {
  const found: FoundOperation[] = [];
  for (const [key, webhook] of [['paths', false], ['webhooks', true]] as const) {
    const items = isSchema(document[key]) ? document[key] : {};
    for (const [name, pathItem] of Object.entries(items)) {
      if (!isSchema(pathItem)) continue;
      for (const method of OPERATION_METHODS) {
        const operation = pathItem[method];
        if (!isSchema(operation)) continue;
        found.push({ method, apiPath: webhook ? name : name, pathItem, operation, ...(webhook ? { webhook: name } : {}) });
      }
    }
  }
  return found;
}

/**
 * The address Folio gave a generated page before it followed Mintlify's (`api-reference/` and the
 * operationId in kebab case, else method and path): old links are sent on to the new address.
 */
export function legacySlug({ method, apiPath, operation }: FoundOperation): string {
  const source = typeof operation.operationId === 'string' && operation.operationId.trim() ? operation.operationId : `${method} ${apiPath}`;
  const slug = source
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || method;
}

/**
 * Mintlify's address of a generated page (docs/decisions.md#openapi-reference-pages):
 * `{directory}/{first tag}/{summary}`, each part converted the same way; without a summary, the
 * method and the path's literal segments (`GET /users/{id}/posts` → `get-users-posts`). A
 * webhook without a summary uses its name. `x-mint.href` replaces the whole address.
 */
export function mintlifyPath(found: FoundOperation, prefix: string): string {
  const href = xMint(found.operation).href;
  if (typeof href === 'string' && urlPart(href.replace(/^\/+|\/+$/g, ''))) {
    return href.replace(/^\/+|\/+$/g, '').split('/').map(urlPart).filter(Boolean).join('/');
  }
  const [tag] = Array.isArray(found.operation.tags) ? found.operation.tags.filter((t): t is string => typeof t === 'string') : [];
  const summary = typeof found.operation.summary === 'string' ? urlPart(found.operation.summary) : '';
  const fallback = found.webhook !== undefined
    ? urlPart(found.webhook)
    : [found.method, ...found.apiPath.split('/').filter((segment) => segment && !/^\{.*\}$/.test(segment))].map(urlPart).join('-');
  return [prefix, tag ? urlPart(tag) : '', summary || fallback || found.method].filter(Boolean).join('/');
}

/**
 * One part of a Mintlify address: spaces become hyphens; `{ } ( ) , . ' /` are removed; lower
 * case. Folio also removes what cannot be part of a page's file name or URL path (`? # % \`,
 * control characters, other white space), which Mintlify keeps.
 */
export function urlPart(text: string): string {
  return text
    .trim()
    .replace(/ /g, '-')
    .replace(/[{}(),.'/]/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[?#%\\"<>`\s\u0000-\u001f\u007f]/g, '')
    .toLowerCase();
}

/** The first page keeps an address, later ones get `-1`, `-2`, … (as on Mintlify). */
function uniquePath(base: string, taken: Set<string>): string {
  let path = base;
  for (let n = 1; taken.has(path); n += 1) path = `${base}-${n}`;
  taken.add(path);
  return path;
}

/** The operation's `x-mint` extension (Mintlify's per-operation settings), or an empty one. */
function xMint(operation: Schema): { metadata: Schema; content?: string; href?: unknown } {
  const ext = isSchema(operation['x-mint']) ? operation['x-mint'] : {};
  return {
    metadata: isSchema(ext.metadata) ? ext.metadata : {},
    ...(typeof ext.content === 'string' ? { content: ext.content } : {}),
    href: ext.href,
  };
}

/** What the page of an operation shows wherever it is (operationParts). */
interface OperationParts {
  parameters: OperationPageModel['parameters'];
  requestBody?: RequestBodyModel;
  security: SecurityModel[];
  serverUrl?: string;
  responses: ResponseModel[];
  scopes: OperationPageModel['scopes'];
  curl: string;
  codeSamples: OperationPageModel['codeSamples'];
  playground?: PlaygroundModel;
}

/** Per operation object of a loaded document: its parts, by the options they were made with. */
const partsMade = new WeakMap<Schema, Map<string, OperationParts>>();

/**
 * The parts of an operation's page that do not depend on the page's address, made once per
 * operation and options: a site of many languages and versions points each section's API tab at
 * the same file, so a 25,000-page site generates 4,000 pages from its 40 operations
 * (docs/decisions.md, "Astro's own time in a one-page build"). The pages share them: nothing
 * changes a page model once made.
 */
function operationParts(document: Schema, refNames: RefNames, { method, apiPath, pathItem, operation, webhook }: FoundOperation, options: BuildOptions): OperationParts {
  const key = JSON.stringify([method, apiPath, webhook ?? null, options.playground ?? null, options.languages ?? null, options.exampleParameters ?? null, options.prefill ?? null]);
  const made = partsMade.get(operation) ?? new Map<string, OperationParts>();
  partsMade.set(operation, made);
  const known = made.get(key);
  if (known) return known;
  const parameters = groupParameters(mergedParameters(pathItem, operation), refNames);
  const requestBody = isSchema(operation.requestBody) ? requestBodyModel(operation.requestBody, refNames) : undefined;
  const security = securityOf(document, operation);
  const servers = serverUrlsOf(document, pathItem, operation);
  const serverUrl = servers[0];
  const request: CurlInput = {
    method,
    serverUrl,
    apiPath: webhook !== undefined ? '/' : apiPath,
    parameters: PARAMETER_LOCATIONS.flatMap((location) => parameters[location]),
    security,
    body: requestBodySample(operation.requestBody),
    ...(options.exampleParameters === 'all' ? { allParameters: true } : {}),
  };
  const parts: OperationParts = {
    parameters,
    security,
    responses: responsesOf(operation, refNames),
    scopes: scopesOf(operation, security),
    curl: curlCommand(request),
    codeSamples: webhook !== undefined ? [] : codeSamples(request, operation, options.languages),
  };
  if (requestBody) parts.requestBody = requestBody;
  if (serverUrl) parts.serverUrl = serverUrl;
  const display = displayOf(xMint(operation).metadata.playground) ?? options.playground ?? 'interactive';
  // Without a server there is nowhere to send a request: the panel only shows it (as Mintlify does).
  if (webhook === undefined && display !== 'none') {
    parts.playground = playgroundOf(document, operation, mergedParameters(pathItem, operation), servers, display === 'interactive' && servers.length > 0 ? 'interactive' : 'simple', options.prefill === true);
  }
  made.set(key, parts);
  return parts;
}

function operationPage(
  document: Schema,
  refNames: RefNames,
  found: FoundOperation,
  where: { path: string; slug: string; untagged: string },
  options: BuildOptions,
): OperationPageModel {
  const { method, apiPath, operation, webhook } = found;
  const { parameters, requestBody, security, serverUrl, responses, scopes, curl, codeSamples, playground } = operationParts(document, refNames, found, options);
  const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
  const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
  const mint = xMint(operation);
  const summary = text(operation.summary);
  const page: OperationPageModel = {
    kind: 'openapi',
    path: where.path,
    slug: where.slug,
    title: text(mint.metadata.title) ?? summary ?? operationId ?? (webhook !== undefined ? webhook : `${method.toUpperCase()} ${apiPath}`),
    method,
    apiPath,
    pathSegments: pathSegments(apiPath),
    deprecated: operation.deprecated === true,
    group: tags[0] ?? where.untagged,
    tags,
    parameters,
    responses,
    security,
    scopes,
    curl,
    codeSamples,
  };
  if (webhook !== undefined) page.webhook = webhook;
  if (operation['x-hidden'] === true || mint.metadata.hidden === true) page.hidden = true;
  if (mint.content) page.content = mint.content;
  if (options.file) page.file = options.file;
  page.legacySlug = legacySlug(found);
  if (operationId) page.operationId = operationId;
  if (summary) page.summary = summary;
  const description = text(mint.metadata.description) ?? text(operation.description);
  if (description) page.description = description;
  if (requestBody) page.requestBody = requestBody;
  if (serverUrl) page.serverUrl = serverUrl;
  if (playground) page.playground = playground;
  return page;
}

function displayOf(value: unknown): PlaygroundDisplay | undefined {
  return value === 'interactive' || value === 'simple' || value === 'none' ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** `/v1/projects/{id}` → text and highlighted `{id}` segments. */
export function pathSegments(apiPath: string): PathSegment[] {
  return apiPath
    .split(/(\{[^}]+\})/)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, param: /^\{[^}]+\}$/.test(part) }));
}

// Operation parameters override path-item parameters with the same name and location.
function mergedParameters(pathItem: Schema, operation: Schema): Schema[] {
  const list = (value: unknown) => (Array.isArray(value) ? value.filter(isSchema) : []);
  const own = list(operation.parameters);
  const key = (parameter: Schema) => `${String(parameter.in)}:${String(parameter.name)}`;
  const ownKeys = new Set(own.map(key));
  return [...list(pathItem.parameters).filter((parameter) => !ownKeys.has(key(parameter))), ...own];
}

function groupParameters(parameters: Schema[], refNames: RefNames): Record<ParameterLocation, ParameterModel[]> {
  const grouped: Record<ParameterLocation, ParameterModel[]> = { path: [], query: [], header: [], cookie: [] };
  for (const parameter of parameters) {
    const location = parameter.in as ParameterLocation;
    if (!grouped[location]) continue;
    grouped[location].push(parameterModel(parameter, location, refNames));
  }
  return grouped;
}

function parameterModel(parameter: Schema, location: ParameterLocation, refNames: RefNames): ParameterModel {
  const schema = parameterSchema(parameter);
  const tree = schema ? schemaTree(schema, refNames) : undefined;
  const model: ParameterModel = {
    name: String(parameter.name),
    in: location,
    required: parameter.required === true,
    deprecated: parameter.deprecated === true,
    type: tree ? `${tree.type}${tree.format ? ` <${tree.format}>` : ''}` : 'any',
  };
  const description = text(parameter.description) ?? text(schema?.description);
  if (description) model.description = description;
  if (tree) model.schema = tree;
  if (tree && 'default' in tree) model.default = tree.default;
  if (tree?.enum) model.enum = tree.enum;
  const example = 'example' in parameter ? parameter.example : schema && 'example' in schema ? schema.example : undefined;
  if (example !== undefined) model.example = example as JsonValue;
  return model;
}

// A parameter described with `content` instead of `schema` uses its single media type's schema.
function parameterSchema(parameter: Schema): Schema | undefined {
  if (isSchema(parameter.schema)) return parameter.schema;
  if (!isSchema(parameter.content)) return undefined;
  const [first] = Object.values(parameter.content);
  return isSchema(first) && isSchema(first.schema) ? first.schema : undefined;
}

function requestBodyModel(body: Schema, refNames: RefNames): RequestBodyModel {
  const model: RequestBodyModel = { required: body.required === true, content: contentOf(body.content, refNames) };
  const description = text(body.description);
  if (description) model.description = description;
  return model;
}

function requestBodySample(body: unknown): { mediaType: string; sample: JsonValue } | undefined {
  if (!isSchema(body) || !isSchema(body.content)) return undefined;
  const entries = Object.entries(body.content).filter((entry): entry is [string, Schema] => isSchema(entry[1]));
  const [mediaType, media] = entries.find(([type]) => /json/i.test(type)) ?? entries[0] ?? [];
  if (!mediaType || !media) return undefined;
  const [example] = mediaTypeExamples(media);
  if (example && !example.synthesized) return { mediaType, sample: parseShown(example.value) };
  return { mediaType, sample: isSchema(media.schema) ? sampleOf(media.schema, [], true) : {} };
}

function parseShown(value: string): JsonValue {
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

function contentOf(content: unknown, refNames: RefNames): MediaTypeModel[] {
  if (!isSchema(content)) return [];
  return Object.entries(content)
    .filter((entry): entry is [string, Schema] => isSchema(entry[1]))
    .map(([mediaType, media]) => {
      const model: MediaTypeModel = { mediaType, examples: mediaTypeExamples(media) };
      if (isSchema(media.schema)) model.schema = schemaTree(media.schema, refNames);
      return model;
    });
}

function responsesOf(operation: Schema, refNames: RefNames): ResponseModel[] {
  const responses = isSchema(operation.responses) ? operation.responses : {};
  return Object.entries(responses)
    .filter((entry): entry is [string, Schema] => isSchema(entry[1]))
    .sort(([a], [b]) => statusOrder(a) - statusOrder(b))
    .map(([status, response]) => ({
      status,
      description: typeof response.description === 'string' ? response.description : '',
      headers: headersOf(response.headers, refNames),
      content: contentOf(response.content, refNames),
    }));
}

// 2XX and 2xx-style ranges sort with their class; `default` goes last.
function statusOrder(status: string): number {
  if (status === 'default') return 1000;
  const numeric = Number(status.replace(/x/gi, '0'));
  return Number.isNaN(numeric) ? 999 : numeric + (/x/i.test(status) ? 0.5 : 0);
}

function headersOf(headers: unknown, refNames: RefNames): HeaderModel[] {
  if (!isSchema(headers)) return [];
  return Object.entries(headers)
    .filter((entry): entry is [string, Schema] => isSchema(entry[1]))
    .map(([name, header]) => {
      const schema = parameterSchema(header);
      const tree = schema ? schemaTree(schema, refNames) : undefined;
      const model: HeaderModel = { name, required: header.required === true, type: tree?.type ?? 'any' };
      const description = text(header.description);
      if (description) model.description = description;
      if (tree) model.schema = tree;
      return model;
    });
}

function securityOf(document: Schema, operation: Schema): SecurityModel[] {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : [];
  const components = isSchema(document.components) ? document.components : {};
  const schemes = isSchema(components.securitySchemes) ? components.securitySchemes : {};
  return requirements.filter(isSchema).flatMap((requirement) =>
    Object.entries(requirement).map(([scheme, scopes]) => ({
      scheme,
      kind: schemeKind(schemes[scheme]),
      scopes: Array.isArray(scopes) ? scopes.map(String) : [],
    })),
  );
}

function schemeKind(scheme: unknown): string {
  if (!isSchema(scheme)) return 'unknown';
  if (scheme.type === 'http') return `http ${String(scheme.scheme ?? '').toLowerCase()}`;
  if (scheme.type === 'apiKey') return `apiKey ${String(scheme.in)} ${String(scheme.name)}`;
  return String(scheme.type);
}

function scopesOf(operation: Schema, security: SecurityModel[]): string[] {
  const declared = operation['x-scopes'];
  if (Array.isArray(declared)) return declared.map(String);
  return [...new Set(security.flatMap((requirement) => requirement.scopes))];
}

// The closest `servers` list wins (operation, then path item, then document); variables take their defaults.
function serverUrlsOf(document: Schema, pathItem: Schema, operation: Schema): string[] {
  const servers = [operation.servers, pathItem.servers, document.servers].find((list) => Array.isArray(list) && list.length > 0);
  return ((servers as unknown[] | undefined) ?? []).filter(isSchema).flatMap((server) => {
    if (typeof server.url !== 'string') return [];
    const variables = isSchema(server.variables) ? server.variables : {};
    return [server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isSchema(variable) && variable.default !== undefined ? String(variable.default) : whole;
    })];
  });
}

/** The playground's inputs: credentials for the operation's schemes, parameters, body properties. */
function playgroundOf(document: Schema, operation: Schema, parameters: Schema[], servers: string[], display: 'interactive' | 'simple', prefill: boolean): PlaygroundModel {
  const fields: PlaygroundField[] = [];
  const budget = { left: MAX_FIELDS };
  for (const parameter of parameters) {
    const location = parameter.in as ParameterLocation;
    // A page's script cannot set cookies for another site: cookie parameters stay in the examples.
    if (!PARAMETER_LOCATIONS.includes(location) || location === 'cookie') continue;
    const schema = parameterSchema(parameter) ?? {};
    const example = 'example' in parameter ? parameter.example : undefined;
    fields.push(fieldOf(location, String(parameter.name), schema, parameter.required === true || location === 'path', { example, prefill, seen: [], depth: 0, budget }));
  }
  const model: PlaygroundModel = { display, servers, auth: authOf(document, operation), fields };
  const body = isSchema(operation.requestBody) && isSchema(operation.requestBody.content) ? operation.requestBody.content : undefined;
  const entries = body ? Object.entries(body).filter((entry): entry is [string, Schema] => isSchema(entry[1])) : [];
  const [mediaType, media] = entries.find(([type]) => /json/i.test(type)) ?? entries[0] ?? [];
  if (mediaType && media) {
    model.bodyMediaType = mediaType;
    const schema = isSchema(media.schema) ? media.schema : {};
    const [authored] = mediaTypeExamples(media);
    const example = authored && !authored.synthesized ? parseShown(authored.value) : undefined;
    const field = /json/i.test(mediaType) ? fieldOf('body', 'body', schema, false, { example, prefill, seen: [], depth: 0, budget }) : undefined;
    if (field?.type === 'object' && field.properties?.length) {
      fields.push(...field.properties);
    } else {
      model.rawBody = true;
      const required = isSchema(operation.requestBody) && operation.requestBody.required === true;
      // A raw body is JSON text: the author's example, else the sample every example on the page shows.
      const sample = example ?? requestBodySample(operation.requestBody)?.sample;
      const shown = sample === undefined ? undefined : typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2);
      fields.push({ in: 'body', name: 'body', required, type: 'json', ...(shown !== undefined ? (prefill || example === undefined ? { value: shown } : { placeholder: shown }) : {}) });
    }
  }
  return model;
}

/** Nested objects and lists are built as fields this deep; deeper ones are typed as JSON. */
const MAX_FIELD_DEPTH = 4;
/**
 * Fields one operation's form may have in all: past it, a value is typed as JSON. Depth alone
 * does not bound a form (a chain of schemas with many properties each grows as the product), and
 * the spec is the tenant's: a small one must not make a build spend minutes on one page.
 */
const MAX_FIELDS = 300;
const LEAF_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

interface FieldContext {
  /** The author's example for this value (parameter, media type or enclosing example). */
  example: unknown;
  prefill: boolean;
  /** Schemas being built around this one, so a recursive schema ends as a JSON field. */
  seen: object[];
  depth: number;
  /** Fields this operation's form may still have (MAX_FIELDS), shared by all of its fields. */
  budget: { left: number };
}

function fieldOf(location: PlaygroundField['in'], name: string, schema: Schema, required: boolean, context: FieldContext): PlaygroundField {
  const merged = mergedAllOf(schema);
  const types = (Array.isArray(merged.type) ? merged.type : [merged.type]).filter((type) => type !== 'null' && type !== undefined);
  const [declared] = types;
  const properties = isSchema(merged.properties) ? Object.entries(merged.properties).filter((entry): entry is [string, Schema] => isSchema(entry[1])) : [];
  // An object becomes a form only when the budget still covers all of its properties (a list, its
  // item); they are taken from it at once, so its siblings see what is really left.
  const expands = merged.oneOf === undefined && merged.anyOf === undefined && !context.seen.includes(schema) && context.depth < MAX_FIELD_DEPTH && context.budget.left >= Math.max(1, properties.length);
  const composite = !expands;
  if (expands) context.budget.left -= Math.max(1, properties.length);
  const type: PlaygroundField['type'] =
    types.length === 1 && LEAF_TYPES.has(declared as string) ? (declared as PlaygroundField['type'])
      : types.length === 0 && Array.isArray(merged.enum) ? 'string'
        : composite ? 'json'
          : properties.length > 0 && (declared === 'object' || types.length === 0) ? 'object'
            : declared === 'array' && types.length === 1 && isSchema(merged.items) ? 'array'
              : 'json';
  const field: PlaygroundField = { in: location, name, required, type };
  if (Array.isArray(merged.enum)) field.enum = merged.enum.filter((value) => value !== null) as JsonValue[];
  if (typeof merged.format === 'string' && type === 'string') field.format = merged.format;
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) if (typeof merged[key] === 'number') field[key] = merged[key] as number;
  if (typeof merged.pattern === 'string') field.pattern = merged.pattern;
  const example = context.example ?? merged.example ?? (Array.isArray(merged.examples) ? merged.examples[0] : undefined);
  const inner = { ...context, seen: [...context.seen, schema], depth: context.depth + 1 };
  if (type === 'object') {
    const requiredNames = Array.isArray(merged.required) ? merged.required : [];
    field.properties = properties
      .filter(([, property]) => property.readOnly !== true)
      .map(([property, propertySchema]) => fieldOf(location, property, propertySchema, requiredNames.includes(property), { ...inner, example: isSchema(example) ? (example as Record<string, unknown>)[property] : undefined }));
    return field;
  }
  if (type === 'array') {
    field.items = fieldOf(location, name, merged.items as Schema, true, { ...inner, example: undefined, prefill: false });
    if (typeof merged.minItems === 'number') field.minItems = merged.minItems;
    const start = context.prefill && Array.isArray(example) ? example.slice(0, 20) : [];
    if (start.length) field.initial = start.map((value) => fieldOf(location, name, merged.items as Schema, true, { ...inner, example: value }));
    return field;
  }
  const shown = (value: unknown) => (value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value));
  // Defaults are what the API would use anyway; examples fill the field only when docs.json asks.
  const value = shown(context.prefill ? example ?? merged.default : merged.default);
  if (value !== undefined) field.value = value;
  else if (shown(example) !== undefined && !field.enum && type !== 'boolean') field.placeholder = shown(example);
  return field;
}

/** A schema with the parts of its `allOf` merged in (properties, required, the rest first come). */
function mergedAllOf(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = schema.allOf.filter(isSchema).map(mergedAllOf);
  const merged: Schema = { ...schema };
  delete merged.allOf;
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isSchema(value)) merged.properties = { ...(isSchema(merged.properties) ? merged.properties : {}), ...value };
      else if (key === 'required' && Array.isArray(value)) merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...value];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  if (merged.type === undefined && isSchema(merged.properties)) merged.type = 'object';
  return merged;
}

/** Credential inputs for the schemes of the operation's requirements, first requirement first. */
function authOf(document: Schema, operation: Schema): PlaygroundAuth[] {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : [];
  const components = isSchema(document.components) ? document.components : {};
  const schemes = isSchema(components.securitySchemes) ? components.securitySchemes : {};
  const names = [...new Set(requirements.filter(isSchema).flatMap((requirement) => Object.keys(requirement)))];
  return names.flatMap((name): PlaygroundAuth[] => {
    const scheme = schemes[name];
    if (!isSchema(scheme)) return [];
    const httpScheme = String(scheme.scheme ?? '').toLowerCase();
    if (scheme.type === 'http' && httpScheme === 'basic') return [{ scheme: name, kind: 'basic' }];
    if (scheme.type === 'http' && httpScheme === 'bearer') return [{ scheme: name, kind: 'bearer' }];
    // The reader pastes an access token got elsewhere: the page runs no OAuth flow of its own.
    if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return [{ scheme: name, kind: 'bearer', flavour: scheme.type }];
    if (scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && typeof scheme.name === 'string') {
      return [{ scheme: name, kind: 'apiKey', in: scheme.in, name: scheme.name }];
    }
    return [];
  });
}

// One group per tag in the document's tag order (tags only used by operations follow in order of
// first use), then the untagged operations. An operation is listed under its first tag.
function navigationGroups(document: Schema, pages: OperationPageModel[], untagged: string): OperationGroup[] {
  const declared = Array.isArray(document.tags) ? document.tags.filter(isSchema).map((tag) => String(tag.name)) : [];
  const used = pages.flatMap((page) => (page.tags[0] ? [page.tags[0]] : []));
  const order = [...new Set([...declared, ...used])];
  const hasUntagged = pages.some((page) => page.tags.length === 0);
  const labels = hasUntagged && !order.includes(untagged) ? [...order, untagged] : order;
  return labels
    .map((label) => ({
      label,
      items: pages
        .filter((page) => page.group === label)
        .filter((page) => !page.hidden)
        .map((page) => ({ path: page.path, title: page.title, method: page.method, deprecated: page.deprecated, ...(page.webhook !== undefined ? { webhook: page.webhook } : {}) })),
    }))
    .filter((group) => group.items.length > 0);
}

// A dereferenced OpenAPI document → one page model per operation, and the navigation groups.
import { curlCommand } from './curl.ts';
import { mediaTypeExamples, sampleOf } from './example.ts';
import { HTTP_METHODS, PARAMETER_LOCATIONS } from './model.ts';
import type {
  HeaderModel,
  HttpMethod,
  JsonValue,
  MediaTypeModel,
  NavGroup,
  OpenApiPages,
  OperationPageModel,
  ParameterLocation,
  ParameterModel,
  PathSegment,
  RequestBodyModel,
  ResponseModel,
  SecurityModel,
} from './model.ts';
import { isSchema, schemaTree } from './schema-tree.ts';
import type { RefNames, Schema } from './schema-tree.ts';

/** Navigation label of operations without a tag, unless `untaggedGroup` says otherwise. */
export const UNTAGGED_GROUP = 'Other';

export interface BuildOptions {
  /** Path prefix of every generated page, e.g. `api-reference`. */
  prefix: string;
  /** Navigation label of operations without a tag. */
  untaggedGroup?: string;
}

interface Found {
  method: HttpMethod;
  apiPath: string;
  pathItem: Schema;
  operation: Schema;
}

/**
 * Builds the page models and navigation groups of a dereferenced document. `taken` holds slugs
 * already used (by another OpenAPI file of the same site); new ones are added to it.
 */
export function buildOperationPages(document: Schema, refNames: RefNames, options: BuildOptions, taken = new Set<string>()): OpenApiPages {
  const prefix = options.prefix.replace(/^\/+|\/+$/g, '');
  const untagged = options.untaggedGroup ?? UNTAGGED_GROUP;
  const pages = findOperations(document).map((found) => {
    const slug = uniqueSlug(baseSlug(found), taken);
    return operationPage(document, refNames, found, { path: prefix ? `${prefix}/${slug}` : slug, slug, untagged });
  });
  return { pages, groups: navigationGroups(document, pages, untagged) };
}

function findOperations(document: Schema): Found[] {
  const paths = isSchema(document.paths) ? document.paths : {};
  const found: Found[] = [];
  for (const [apiPath, pathItem] of Object.entries(paths)) {
    if (!isSchema(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isSchema(operation) && operation['x-hidden'] !== true) found.push({ method, apiPath, pathItem, operation });
    }
  }
  return found;
}

/** `createProject` → `create-project`; without an operationId, `get-projects-id`. */
function baseSlug({ method, apiPath, operation }: Found): string {
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

function uniqueSlug(base: string, taken: Set<string>): string {
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

function operationPage(
  document: Schema,
  refNames: RefNames,
  { method, apiPath, pathItem, operation }: Found,
  where: { path: string; slug: string; untagged: string },
): OperationPageModel {
  const parameters = groupParameters(mergedParameters(pathItem, operation), refNames);
  const requestBody = isSchema(operation.requestBody) ? requestBodyModel(operation.requestBody, refNames) : undefined;
  const security = securityOf(document, operation);
  const serverUrl = serverUrlOf(document, pathItem, operation);
  const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
  const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
  const summary = text(operation.summary);
  const page: OperationPageModel = {
    kind: 'openapi',
    path: where.path,
    slug: where.slug,
    title: summary ?? operationId ?? `${method.toUpperCase()} ${apiPath}`,
    method,
    apiPath,
    pathSegments: pathSegments(apiPath),
    deprecated: operation.deprecated === true,
    group: tags[0] ?? where.untagged,
    tags,
    parameters,
    responses: responsesOf(operation, refNames),
    security,
    scopes: scopesOf(operation, security),
    curl: curlCommand({
      method,
      serverUrl,
      apiPath,
      parameters: PARAMETER_LOCATIONS.flatMap((location) => parameters[location]),
      security,
      body: requestBodySample(operation.requestBody),
    }),
  };
  if (operationId) page.operationId = operationId;
  if (summary) page.summary = summary;
  const description = text(operation.description);
  if (description) page.description = description;
  if (requestBody) page.requestBody = requestBody;
  if (serverUrl) page.serverUrl = serverUrl;
  return page;
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
  return { mediaType, sample: isSchema(media.schema) ? sampleOf(media.schema) : {} };
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
function serverUrlOf(document: Schema, pathItem: Schema, operation: Schema): string | undefined {
  const servers = [operation.servers, pathItem.servers, document.servers].find((list) => Array.isArray(list) && list.length > 0);
  const [server] = (servers as unknown[] | undefined) ?? [];
  if (!isSchema(server) || typeof server.url !== 'string') return undefined;
  const variables = isSchema(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isSchema(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
}

// One group per tag in the document's tag order (tags only used by operations follow in order of
// first use), then the untagged operations. An operation is listed under its first tag.
function navigationGroups(document: Schema, pages: OperationPageModel[], untagged: string): NavGroup[] {
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
        .map((page) => ({ path: page.path, title: page.title, method: page.method, deprecated: page.deprecated })),
    }))
    .filter((group) => group.items.length > 0);
}

// Writes a synthetic, valid OpenAPI 3.1 document with N operations, for the build benchmark's
// OpenAPI case. Usage: node scripts/generate-openapi.ts OUT_DIR [OPERATIONS]
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SyntheticOpenApiOptions {
  /** Number of operations (default 500). */
  operations?: number;
  /** File name inside the directory (default `openapi.json`). */
  fileName?: string;
}

// Each resource has these five operations; tags group ten resources' worth of operations.
const VERBS = [
  { method: 'get', suffix: '', id: 'list', summary: 'List' },
  { method: 'post', suffix: '', id: 'create', summary: 'Create' },
  { method: 'get', suffix: '/{id}', id: 'get', summary: 'Get' },
  { method: 'patch', suffix: '/{id}', id: 'update', summary: 'Update' },
  { method: 'delete', suffix: '/{id}', id: 'delete', summary: 'Delete' },
] as const;

/** Writes the document into `dir` and returns the file's path. Deterministic for a given N. */
export async function writeSyntheticOpenApi(dir: string, options: SyntheticOpenApiOptions = {}): Promise<string> {
  const count = options.operations ?? 500;
  const file = join(dir, options.fileName ?? 'openapi.json');
  await mkdir(dir, { recursive: true });
  await writeFile(file, `${JSON.stringify(syntheticOpenApi(count), null, 2)}\n`);
  return file;
}

/** The document itself: `count` operations over resources `/resource-1`, `/resource-2`, … */
export function syntheticOpenApi(count: number): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (let index = 0; index < count; index += 1) {
    const resource = Math.floor(index / VERBS.length) + 1;
    const verb = VERBS[index % VERBS.length];
    const tag = `Group ${Math.floor((resource - 1) / 10) + 1}`;
    tags.add(tag);
    const path = `/resource-${resource}${verb.suffix}`;
    paths[path] ??= verb.suffix ? { parameters: [{ $ref: '#/components/parameters/id' }] } : {};
    paths[path][verb.method] = operation(verb, resource, tag);
  }
  return {
    openapi: '3.1.0',
    info: { title: `Synthetic API (${count} operations)`, version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/v1' }],
    security: [{ bearer: [] }],
    tags: [...tags].map((name) => ({ name, description: `Operations of ${name.toLowerCase()}.` })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        requestId: { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
      },
      schemas: {
        Item: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string', minLength: 1, maxLength: 80, description: 'Display **name**.' },
            status: { type: 'string', enum: ['draft', 'active', 'archived'] },
            tags: { type: 'array', items: { type: 'string' } },
            parent: { anyOf: [{ $ref: '#/components/schemas/Item' }, { type: 'null' }] },
            owner: { $ref: '#/components/schemas/Owner' },
            updated_at: { type: ['string', 'null'], format: 'date-time' },
          },
        },
        Owner: {
          oneOf: [
            { type: 'object', properties: { user: { type: 'string' } }, required: ['user'] },
            { type: 'object', properties: { team: { type: 'string' } }, required: ['team'] },
          ],
        },
        ItemInput: {
          allOf: [{ type: 'object', properties: { name: { type: 'string' }, status: { type: 'string', enum: ['draft', 'active'] } } }],
        },
        Error: { type: 'object', required: ['error', 'message'], properties: { error: { type: 'string' }, message: { type: 'string' } } },
      },
    },
  };
}

function operation(verb: (typeof VERBS)[number], resource: number, tag: string): Record<string, unknown> {
  const item = { $ref: '#/components/schemas/Item' };
  const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const ok = (status: string, schema?: unknown) => ({
    [status]: schema ? { description: 'OK', content: { 'application/json': { schema } } } : { description: 'No content' },
  });
  const responses =
    verb.id === 'list' ? ok('200', { type: 'object', properties: { data: { type: 'array', items: item }, next_cursor: { type: ['string', 'null'] } } })
    : verb.id === 'delete' ? ok('204')
    : ok(verb.id === 'create' ? '201' : '200', item);
  const body = verb.id === 'create' || verb.id === 'update'
    ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemInput' } } } } }
    : {};
  return {
    tags: [tag],
    operationId: `${verb.id}Resource${resource}`,
    summary: `${verb.summary} resource ${resource}`,
    description: `${verb.summary} items of resource ${resource}. Supports \`limit\` and the usual errors.`,
    ...(verb.id === 'list' ? { parameters: [{ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/requestId' }] } : {}),
    ...body,
    responses: { ...responses, '400': error, '404': error },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, operations] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/generate-openapi.ts OUT_DIR [OPERATIONS]');
    process.exit(2);
  }
  const file = await writeSyntheticOpenApi(resolve(dir), { operations: operations ? Number(operations) : undefined });
  console.log(file);
}

// docs/decisions.md#openapi-reference-pages / docs/decisions.md#content-root rule 4: an OpenAPI 3.0 YAML and a 3.1 JSON file become page models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiPages, markdownToSafeHtml, operationHeadings, operationToMarkdown } from '../../src/site/openapi/index.ts';
import type { OpenApiPages, OperationPageModel, SchemaNode } from '../../src/site/openapi/index.ts';
import { contentRoot, PETSTORE_30_YAML, TODO_31, TODO_PATCH_SCHEMA } from './fixtures.ts';
import type { ContentRoot } from './fixtures.ts';
import { leftoverTags } from '../../src/site/markdown/leftover-tags.ts';

let root: ContentRoot;
let pets: OpenApiPages;
let todos: OpenApiPages;

beforeAll(async () => {
  root = contentRoot({
    'api/pets.yaml': PETSTORE_30_YAML,
    'todo.json': JSON.stringify(TODO_31, null, 2),
    'schemas/todo-patch.json': JSON.stringify(TODO_PATCH_SCHEMA),
  });
  pets = await loadOpenApiPages(root.dir, 'api/pets.yaml', { prefix: 'api-reference' });
  todos = await loadOpenApiPages(root.dir, '/todo.json', { prefix: '/reference/' });
});
afterAll(() => root.remove());

const page = (result: OpenApiPages, path: string): OperationPageModel => {
  const found = result.pages.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no page ${path} in ${result.pages.map((p) => p.path).join(', ')}`);
  return found;
};
const child = (node: SchemaNode | undefined, name: string): SchemaNode => {
  const found = node?.properties?.find((property) => property.name === name);
  if (!found) throw new Error(`no property ${name}`);
  return found;
};

describe('pages and navigation (3.0 YAML)', () => {
  it('makes one page per operation at Mintlify\'s {directory}/{tag}/{summary} addresses, x-hidden ones marked hidden', () => {
    expect(pets.pages.map((p) => `${p.method} ${p.apiPath} → ${p.path}`)).toEqual([
      'get /pets/{petId} → api-reference/pets/find-a-pet',
      'delete /pets/{petId} → api-reference/pets/delete-a-pet',
      'get /pets → api-reference/pets/list-pets',
      'post /pets → api-reference/pets/create-a-pet-operationid-collides-with-listpets-once-slugified',
      'get /store/inventory → api-reference/store/inventory',
      'get /health → api-reference/get-health',
      'get /internal → api-reference/get-internal',
    ]);
    expect(pets.pages.every((p) => p.kind === 'openapi')).toBe(true);
    expect(pets.pages.filter((p) => p.hidden).map((p) => p.path)).toEqual(['api-reference/get-internal']);
    expect(JSON.stringify(pets.groups)).not.toContain('internal');
  });

  it('groups navigation by tag in document order, untagged last, empty tags left out', () => {
    expect(pets.groups.map((group) => [group.label, group.items.map((item) => item.path)])).toEqual([
      ['Store', ['api-reference/store/inventory']],
      ['Pets', ['api-reference/pets/find-a-pet', 'api-reference/pets/delete-a-pet', 'api-reference/pets/list-pets', 'api-reference/pets/create-a-pet-operationid-collides-with-listpets-once-slugified']],
      ['Other', ['api-reference/get-health']],
    ]);
    expect(pets.groups[1].items[1]).toEqual({ path: 'api-reference/pets/delete-a-pet', title: 'Delete a pet', method: 'delete', deprecated: true });
  });

  it('titles pages by summary, else operationId, else method and path', () => {
    expect(page(pets, 'api-reference/pets/find-a-pet').title).toBe('Find a pet');
    expect(page(pets, 'api-reference/get-health').title).toBe('GET /health');
    expect(page(todos, 'reference/patch-todos').title).toBe('updateTodo');
  });

  it('marks deprecated operations and the path parameters of the path', () => {
    expect(page(pets, 'api-reference/pets/delete-a-pet').deprecated).toBe(true);
    expect(page(pets, 'api-reference/pets/find-a-pet').deprecated).toBe(false);
    expect(page(pets, 'api-reference/pets/find-a-pet').pathSegments).toEqual([
      { text: '/pets/', param: false },
      { text: '{petId}', param: true },
    ]);
  });

  it('groups parameters by location with type, required, default, enum and description; operation overrides path item', () => {
    const { parameters } = page(pets, 'api-reference/pets/find-a-pet');
    expect(parameters.path).toMatchObject([
      { name: 'petId', in: 'path', required: true, type: 'integer <int64>', description: "The pet's id" },
    ]);
    expect(parameters.path[0].schema?.constraints).toEqual(['minimum: 1']);
    expect(parameters.query.map((p) => p.name)).toEqual(['verbose', 'fields']);
    expect(parameters.query[0]).toMatchObject({ required: false, type: 'boolean', default: false, description: 'Include the owner' });
    expect(parameters.query[1].type).toBe('array<string>');
    expect(parameters.query[1].schema?.items?.enum).toEqual(['name', 'tag', 'status']);
    expect(parameters.header).toMatchObject([{ name: 'X-Request-Id', required: true, type: 'string <uuid>' }]);
    expect(parameters.cookie).toMatchObject([{ name: 'session', required: false, type: 'string' }]);
    expect(page(pets, 'api-reference/pets/list-pets').parameters.query[0]).toMatchObject({
      name: 'status', required: true, enum: ['available', 'sold'], default: 'available',
    });
  });

  it('shows schemas as trees: $ref names, allOf/oneOf/anyOf, arrays, maps, nullable, limits, recursion', () => {
    const pet = page(pets, 'api-reference/pets/find-a-pet').responses[0].content[0].schema;
    expect(pet).toMatchObject({ refName: 'Pet', combinator: 'allOf', type: 'allOf' });
    const [newPet, extra] = pet?.variants ?? [];
    expect(newPet.refName).toBe('NewPet');
    expect(child(newPet, 'name')).toMatchObject({ required: true, type: 'string', constraints: ['minLength: 1', 'maxLength: 40'], description: 'Display name' });
    expect(child(newPet, 'tags')).toMatchObject({ type: 'array<string>', items: { type: 'string' } });
    expect(child(newPet, 'kind')).toMatchObject({ combinator: 'oneOf', variants: [{ refName: 'Dog' }, { refName: 'Cat' }] });
    expect(child(newPet, 'nickname').variants?.map((v) => v.type)).toEqual(['string', 'integer']);
    expect(child(newPet, 'nickname').combinator).toBe('anyOf');
    expect(child(extra, 'status')).toMatchObject({ nullable: true, enum: ['available', 'sold'], required: false });
    expect(child(extra, 'id')).toMatchObject({ required: true, type: 'integer', format: 'int64' });
    const category = child(extra, 'category');
    expect(category.refName).toBe('Category');
    expect(child(category, 'parent')).toMatchObject({ refName: 'Category', circular: 'Category' });
    expect(child(category, 'parent').properties).toBeUndefined();

    const list = page(pets, 'api-reference/pets/list-pets').responses[0].content[0].schema;
    expect(list).toMatchObject({ type: 'array<Pet>', items: { refName: 'Pet' } });
    const inventory = page(pets, 'api-reference/store/inventory').responses[0].content[0].schema;
    expect(inventory).toMatchObject({ type: 'object', additionalProperties: { type: 'integer' } });
  });

  it('lists every response with status, description and schema, in status order', () => {
    const responses = page(pets, 'api-reference/pets/find-a-pet').responses;
    expect(responses.map((r) => [r.status, r.description])).toEqual([
      ['200', 'The pet'],
      ['404', 'No such pet'],
      ['default', 'Unexpected error'],
    ]);
    expect(responses[1].content[0].schema?.refName).toBe('Error');
    expect(responses[2].content).toEqual([]);
  });

  it('uses explicit examples, named examples, or synthesises one from the schema', () => {
    const ok = page(pets, 'api-reference/pets/find-a-pet').responses[0].content[0];
    expect(ok.examples).toEqual([{ value: JSON.stringify({ id: 7, name: 'Rex', status: 'available' }, null, 2), synthesized: false }]);
    const body = page(pets, 'api-reference/pets/create-a-pet-operationid-collides-with-listpets-once-slugified').requestBody;
    expect(body?.required).toBe(true);
    expect(body?.description).toBe('The new pet');
    expect(body?.content.map((media) => media.mediaType)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body?.content[0].examples.map((e) => [e.name, e.summary, JSON.parse(e.value)])).toEqual([
      ['dog', 'A dog', { name: 'Rex', kind: { barks: true } }],
      ['cat', undefined, { name: 'Tom', kind: { meows: 3 } }],
    ]);
    const synthesized = page(pets, 'api-reference/pets/find-a-pet').responses[1].content[0].examples;
    expect(synthesized).toEqual([{ value: JSON.stringify({ error: 'string', message: 'string' }, null, 2), synthesized: true }]);
  });

  it('builds a copyable curl example from servers[0] (variables filled), required parameters and the body example', () => {
    expect(page(pets, 'api-reference/pets/find-a-pet').curl).toBe(
      "curl -X GET 'https://eu.pets.example.com/v2/pets/<petId>' \\\n  -H 'X-Request-Id: <X-Request-Id>'",
    );
    expect(page(pets, 'api-reference/pets/list-pets').curl).toBe("curl -X GET 'https://eu.pets.example.com/v2/pets?status=available'");
    const post = page(pets, 'api-reference/pets/create-a-pet-operationid-collides-with-listpets-once-slugified').curl;
    expect(post).toContain("-H 'Content-Type: application/json'");
    expect(post).toContain(`--data '${JSON.stringify({ name: 'Rex', kind: { barks: true } }, null, 2)}'`);
  });
});

describe('3.1 JSON specifics', () => {
  it('reads type: [x, "null"] and enums with null as nullable, and schema examples arrays', () => {
    const todo = page(todos, 'reference/get-a-todo').responses[0].content[0];
    expect(child(todo.schema, 'due')).toMatchObject({ type: 'string', nullable: true, format: 'date-time' });
    expect(child(todo.schema, 'priority')).toMatchObject({ type: 'string', nullable: true, enum: ['low', 'high'] });
    expect(child(todo.schema, 'children')).toMatchObject({ type: 'array<Todo>', items: { circular: 'Todo' } });
    const example = JSON.parse(todo.examples[0].value);
    expect(todo.examples[0].synthesized).toBe(true);
    expect(example).toEqual({
      id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      title: 'Buy milk',
      due: '2024-01-01T00:00:00.000Z',
      priority: 'low',
      children: [],
    });
  });

  it('describes response headers, security scopes (x-scopes wins) and the bearer header of curl', () => {
    const get = page(todos, 'reference/get-a-todo');
    expect(get.responses[0].headers).toEqual([
      expect.objectContaining({ name: 'X-RateLimit-Remaining', type: 'integer', description: 'Requests left' }),
    ]);
    expect(get.security).toEqual([{ scheme: 'bearer', kind: 'http bearer', scopes: ['todos:read'] }]);
    expect(get.scopes).toEqual(['todos:read']);
    expect(get.serverUrl).toBeUndefined();
    expect(get.curl).toBe("curl -X GET 'https://api.example.com/todos/<id>' \\\n  -H 'Authorization: Bearer <token>'");
    expect(page(todos, 'reference/patch-todos').scopes).toEqual(['todos:write']);
  });

  it('resolves a $ref to another file inside the content root', () => {
    const body = page(todos, 'reference/patch-todos').requestBody?.content[0].schema;
    expect(body?.refName).toBe('todo-patch');
    expect(body?.properties?.map((p) => `${p.name}:${p.type}`)).toEqual(['title:string', 'done:boolean']);
  });

  it('puts untagged operations in one group and normalises the prefix', () => {
    expect(todos.groups).toEqual([
      {
        label: 'Other',
        items: [
          { path: 'reference/get-a-todo', title: 'Get a todo', method: 'get', deprecated: false },
          { path: 'reference/patch-todos', title: 'updateTodo', method: 'patch', deprecated: false },
        ],
      },
    ]);
  });

  it('takes several files: page paths stay unique across them and same-named groups merge', async () => {
    const both = await loadOpenApiPages(root.dir, ['todo.json', 'todo.json', 'api/pets.yaml'], { prefix: 'ref' });
    expect(both.pages.slice(0, 4).map((p) => p.path)).toEqual(['ref/get-a-todo', 'ref/patch-todos', 'ref/get-a-todo-1', 'ref/patch-todos-1']);
    expect(new Set(both.pages.map((p) => p.path)).size).toBe(both.pages.length);
    expect(both.groups.map((group) => [group.label, group.items.length])).toEqual([['Store', 1], ['Pets', 4], ['Other', 5]]);
  });

  it('produces plain JSON: the model survives a JSON round trip unchanged', () => {
    expect(JSON.parse(JSON.stringify(pets))).toEqual(pets);
    expect(JSON.parse(JSON.stringify(todos))).toEqual(todos);
  });
});

describe('text outputs', () => {
  it('renders description Markdown without running raw HTML or javascript: links', () => {
    const html = markdownToSafeHtml(page(pets, 'api-reference/pets/find-a-pet').description);
    expect(html).toContain('<strong>one</strong>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('javascript:');
    expect(markdownToSafeHtml('<img src=x onerror="alert(1)"> *hi*')).toBe('<p> <em>hi</em></p>');
  });

  it('summarises an operation as Markdown for llms.txt', () => {
    const markdown = operationToMarkdown(page(pets, 'api-reference/pets/list-pets'));
    expect(markdown).toContain('# List pets\n\n`GET /pets`');
    expect(markdown).toContain('## Query parameters\n\n- `status` (string, required, default "available", one of "available", "sold")');
    // A type's angle brackets are escaped: `<Pet>` would be an HTML tag to a Markdown reader.
    expect(markdown).toContain('- **200**: Pets (array\\<Pet\\>)');
    expect(leftoverTags(markdown)).toEqual([]);
    expect(leftoverTags(operationToMarkdown(page(pets, 'api-reference/pets/find-a-pet')))).toEqual([]);
    expect(markdown).toContain("```bash\ncurl -X GET 'https://eu.pets.example.com/v2/pets?status=available'\n```");
    expect(operationToMarkdown(page(pets, 'api-reference/pets/delete-a-pet'))).toContain('`DELETE /pets/{petId}` (deprecated)');
  });

  it('lists the headings the page renders, for the table of contents', () => {
    expect(operationHeadings(page(pets, 'api-reference/pets/find-a-pet')).map((h) => `${h.depth} ${h.slug}`)).toEqual([
      '2 try-it', '2 parameters', '3 path-parameters', '3 query-parameters', '3 header-parameters', '3 cookie-parameters',
      '2 responses', '3 response-200', '3 response-404', '3 response-default', '2 example-request',
    ]);
  });
});

describe('playground form size', () => {
  it('bounds the fields of one operation, however a small spec multiplies its nested objects', async () => {
    // Four levels of objects of 20 properties each, each level one schema referred to 20 times:
    // a small spec, but 20^4 fields if every level became a form.
    const level = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, n === 1 ? { type: 'string' } : { $ref: `#/components/schemas/L${n - 1}` }])) });
    const spec = {
      openapi: '3.1.0',
      info: { title: 'Wide', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      components: { schemas: { L1: level(1), L2: level(2), L3: level(3) } },
      paths: { '/things': { post: { summary: 'Make a thing', requestBody: { content: { 'application/json': { schema: level(4) } } }, responses: { '200': { description: 'ok' } } } } },
    };
    const wide = contentRoot({ 'wide.json': JSON.stringify(spec) });
    try {
      const [made] = (await loadOpenApiPages(wide.dir, 'wide.json', { prefix: 'api' })).pages;
      const count = (fields: { properties?: unknown[]; items?: unknown }[] = []): number =>
        fields.reduce((sum, f) => sum + 1 + count(f.properties as never) + (f.items ? count([f.items] as never) : 0), 0);
      const total = count(made!.playground!.fields as never);
      expect(total).toBeGreaterThan(20);
      expect(total).toBeLessThanOrEqual(300);
      // Past the budget a value is still sendable, as JSON.
      expect(JSON.stringify(made!.playground!.fields)).toContain('"type":"json"');
    } finally {
      wide.remove();
    }
  });
});

// docs/decisions.md#openapi-reference-pages: an invalid or unreadable OpenAPI file fails with the file and the location of the
// problem; nothing outside the content root (or on the network) is ever read.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiPages, OpenApiError } from '../../src/site/openapi/index.ts';
import { contentRoot } from './fixtures.ts';
import type { ContentRoot } from './fixtures.ts';

const VALID = `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - name: id
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Item' }
components:
  schemas:
    Item:
      type: object
      properties:
        name: { type: string }
`;

let root: ContentRoot;
let outside: ContentRoot;

beforeAll(() => {
  outside = contentRoot({ 'secret.yaml': 'Secret: { type: string }\n' });
  root = contentRoot({
    'valid.yaml': VALID,
    // line 11: the parameter schema's type is misspelt
    'wrong-type.yaml': VALID.replace('schema: { type: string }', 'schema: { type: strin }'),
    'bad-ref.yaml': VALID.replace("'#/components/schemas/Item'", "'#/components/schemas/Missing'"),
    'broken.yaml': 'openapi: 3.0.3\ninfo:\n  title: [unclosed\n  version: 1\n',
    'broken.json': '{\n  "openapi": "3.1.0",\n  "info": { "title": "x", },\n  "paths": {}\n}\n',
    'wrong-types.json': [
      '{',
      '  "openapi": "3.1.0",',
      '  "info": { "title": "x", "version": "1" },',
      '  "paths": {',
      '    "/a": {',
      '      "get": {',
      '        "parameters": [{ "name": "q", "in": "query", "required": "yes", "schema": { "type": "string" } }],',
      '        "responses": { "200": { "description": 5 } }',
      '      }',
      '    }',
      '  }',
      '}',
    ].join('\n'),
    'no-paths.json': '{\n  "openapi": "3.1.0",\n  "info": { "title": "x" }\n}\n',
    'escape.yaml': VALID.replace("'#/components/schemas/Item'", `'${join(outside.dir, 'secret.yaml')}#/Secret'`),
    'dotdot.yaml': VALID.replace("'#/components/schemas/Item'", "'../../../../../../etc/hostname#/x'"),
    'url-ref.yaml': VALID.replace("'#/components/schemas/Item'", "'https://example.com/schemas.yaml#/Item'"),
    'dir/.keep': '',
    'swagger.yaml': "swagger: '2.0'\ninfo: { title: T, version: '1' }\npaths: {}\n",
    'v32.yaml': VALID.replace('openapi: 3.0.3', 'openapi: 3.2.0'),
    'duplicate-id.yaml': VALID.replace('paths:\n', 'paths:\n  /other:\n    get:\n      operationId: getItem\n      responses:\n        \'200\': { description: OK }\n'),
  });
  symlinkSync(join(outside.dir, 'secret.yaml'), join(root.dir, 'linked.yaml'));
  writeFileSync(join(root.dir, 'not-openapi.json'), '{"hello": "world"}');
});
afterAll(() => {
  root.remove();
  outside.remove();
});

async function failure(path: string): Promise<OpenApiError> {
  const error = await loadOpenApiPages(root.dir, path, { prefix: 'api' }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenApiError);
  return error as OpenApiError;
}

describe('invalid OpenAPI files', () => {
  it('a valid file loads (control for the cases below)', async () => {
    const { pages } = await loadOpenApiPages(root.dir, 'valid.yaml', { prefix: 'api' });
    expect(pages.map((p) => p.path)).toEqual(['api/get-items']);
  });

  it('a wrong type names the file, line and column, and the JSON pointer', async () => {
    const error = await failure('wrong-type.yaml');
    expect(error.file).toBe('wrong-type.yaml');
    expect(error.message).toContain('wrong-type.yaml:11:21 at #/paths/~1items~1{id}/get/parameters/0/schema/type');
    expect(error.message).toContain('must be equal to one of the allowed values');
  });

  it('wrong types in a 3.1 JSON file are all reported with line, column and pointer', async () => {
    const error = await failure('wrong-types.json');
    expect(error.message).toBe(
      'Invalid OpenAPI document wrong-types.json:\n' +
        '  wrong-types.json:7:54 at #/paths/~1a/get/parameters/0/required: TYPE must be boolean\n' +
        '  wrong-types.json:8:33 at #/paths/~1a/get/responses/200/description: TYPE must be string',
    );
  });

  it('a missing required field points at the object lacking it', async () => {
    const error = await failure('no-paths.json');
    expect(error.message).toContain('no-paths.json:1:1 at #/');
    expect(error.message).toContain("must have required property 'paths'");
    expect(error.message).toContain("no-paths.json:3:3 at #/info: REQUIRED must have required property 'version'");
  });

  it('a $ref to nothing names the pointer and where the $ref is written', async () => {
    const error = await failure('bad-ref.yaml');
    expect(error.message).toContain('#/components/schemas/Missing');
    expect(error.message).toContain('bad-ref.yaml:17:25 #/paths/~1items~1{id}/get/responses/200/content/application~1json/schema/$ref');
  });

  it('a rule outside the JSON schema (duplicate operationId) names both places', async () => {
    const error = await failure('duplicate-id.yaml');
    expect(error.message).toContain('The operationId `getItem` is duplicated');
    expect(error.message).toContain('(at duplicate-id.yaml:6:7 #/paths/~1other/get/operationId, duplicate-id.yaml:11:7 #/paths/~1items~1{id}/get/operationId)');
  });

  it('unparsable YAML and JSON name the file, line and column', async () => {
    expect((await failure('broken.yaml')).message).toMatch(/^Cannot parse broken\.yaml:\d+:\d+: /);
    expect((await failure('broken.json')).message).toMatch(/^Cannot parse broken\.json:3:\d+: /);
  });

  it('a file that is not an OpenAPI 3.0/3.1 document is refused', async () => {
    expect((await failure('not-openapi.json')).message).toBe(
      'not-openapi.json:1:1: only OpenAPI 3.0 and 3.1 are supported (found no "openapi" field)',
    );
    expect((await failure('swagger.yaml')).message).toBe('swagger.yaml:1:1: only OpenAPI 3.0 and 3.1 are supported (found Swagger 2.0)');
    expect((await failure('v32.yaml')).message).toBe('v32.yaml:1:1: only OpenAPI 3.0 and 3.1 are supported (found 3.2.0)');
  });
});

describe('the content root is a boundary', () => {
  it('refuses an OpenAPI path outside the root, a missing file, a directory and a URL', async () => {
    expect((await failure('../outside.yaml')).message).toBe('OpenAPI file "../outside.yaml" is outside the content root');
    expect((await failure('missing.yaml')).message).toBe('OpenAPI file "missing.yaml" not found in the content root');
    expect((await failure('dir')).message).toBe('OpenAPI file "dir" is not a file');
    expect((await failure('https://example.com/openapi.json')).message).toBe('OpenAPI file "https://example.com/openapi.json": builds never use the network, so a spec cannot be read from a URL; save it in the content root and name its path (for example "openapi.yaml")');
  });

  it('refuses a symbolic link that leads outside the root', async () => {
    expect((await failure('linked.yaml')).message).toBe('OpenAPI file "linked.yaml" is outside the content root (symbolic link)');
  });

  it('refuses $refs to files outside the root and to URLs, naming where the $ref is', async () => {
    const absolute = await failure('escape.yaml');
    expect(absolute.message).toContain('points outside the content root');
    expect(absolute.message).toContain('escape.yaml:17:25');
    expect(absolute.message).not.toContain('Secret: {');
    const relative = await failure('dotdot.yaml');
    expect(relative.message).toMatch(/points outside the content root|does not exist/);
    expect(relative.message).toContain('dotdot.yaml:17:25');
    const url = await failure('url-ref.yaml');
    expect(url.message).toContain('$ref to the URL "https://example.com/schemas.yaml" is not allowed');
    expect(url.message).toContain('url-ref.yaml:17:25');
  });
});

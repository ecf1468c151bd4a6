// A build does not validate again the OpenAPI text its check validated (src/site/openapi/load.ts,
// checked-files.ts): the same files give the same pages, and a spec or a file it refers to that
// changed after the check is validated in full, so its problem still fails the build.
import { afterEach, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, loadOpenApiPages, specLoader } from '../../src/site/openapi/index.ts';
import { contentRoot } from './fixtures.ts';
import type { ContentRoot } from './fixtures.ts';

const SPEC = `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /items/{id}:
    get:
      summary: Get an item
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Item' }
`;
const SCHEMAS = 'Item:\n  type: object\n  properties:\n    name: { type: string, description: The **name**. }\n';

let root: ContentRoot | undefined;
afterEach(() => root?.remove());

async function checked(dir: string): Promise<Set<string>> {
  const { digest } = await loadOpenApiDocument(dir, 'openapi.yaml', { validateOnly: true });
  expect(digest).toMatch(/^openapi:[0-9a-f]{64}$/);
  return new Set([digest!]);
}

describe('an OpenAPI file the check before the build validated', () => {
  it('gives the build the same pages without validating it again', async () => {
    root = contentRoot({ 'openapi.yaml': SPEC, 'schemas.yaml': SCHEMAS });
    const options = { prefix: 'api-reference' };
    const full = await loadOpenApiPages(root.dir, 'openapi.yaml', options);
    const fast = await loadOpenApiPages(root.dir, 'openapi.yaml', options, specLoader(root.dir, { checked: await checked(root.dir) }));
    expect(fast.pages).toEqual(full.pages);
    expect(fast.pages[0]?.responses[0]?.content[0]?.schema?.refName).toBe('Item');
  });

  it('is validated again when it changed after the check', async () => {
    root = contentRoot({ 'openapi.yaml': SPEC, 'schemas.yaml': SCHEMAS });
    const digests = await checked(root.dir);
    root.write('openapi.yaml', SPEC.replace(/ {6}responses:[\s\S]*$/, ''));
    await expect(loadOpenApiDocument(root.dir, 'openapi.yaml', { checked: digests })).rejects.toThrow(/Invalid OpenAPI document openapi\.yaml/);
  });

  it('is validated again when a file it refers to changed after the check', async () => {
    root = contentRoot({ 'openapi.yaml': SPEC, 'schemas.yaml': SCHEMAS });
    const digests = await checked(root.dir);
    root.write('schemas.yaml', SCHEMAS.replace('type: object', 'type: objekt'));
    await expect(loadOpenApiDocument(root.dir, 'openapi.yaml', { checked: digests })).rejects.toThrow(/Invalid OpenAPI document openapi\.yaml/);
  });

  it('read leniently (3.0 with 3.1 forms) keeps its warning and is validated by the build', async () => {
    root = contentRoot({ 'openapi.yaml': SPEC.replace('schema: { type: string }', 'schema: { type: [string, "null"] }'), 'schemas.yaml': SCHEMAS });
    const check = await loadOpenApiDocument(root.dir, 'openapi.yaml', { validateOnly: true });
    expect(check.digest).toBeUndefined();
    expect(check.warnings.join('\n')).toContain('uses OpenAPI 3.1 forms');
  });
});

// scripts/generate-openapi.ts: the benchmark's synthetic spec is valid and yields N pages.
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticOpenApi } from '../../scripts/generate-openapi.ts';
import { loadOpenApiPages } from '../../src/site/openapi/index.ts';
import { contentRoot } from './fixtures.ts';

const root = contentRoot();
afterAll(() => root.remove());

describe('synthetic OpenAPI generator', () => {
  it('writes a valid document whose N operations become N pages with unique paths', async () => {
    const file = await writeSyntheticOpenApi(root.dir, { operations: 23 });
    expect(file).toBe(`${root.dir}/openapi.json`);
    const { pages, groups } = await loadOpenApiPages(root.dir, 'openapi.json', { prefix: 'api' });
    expect(pages).toHaveLength(23);
    expect(new Set(pages.map((page) => page.path)).size).toBe(23);
    expect(pages[0]).toMatchObject({ path: 'api/group-1/list-resource-1', method: 'get', apiPath: '/resource-1' });
    expect(groups.map((group) => [group.label, group.items.length])).toEqual([['Group 1', 23]]);
    const get = pages.find((page) => page.path === 'api/group-1/get-resource-1')!;
    const parent = get.responses[0].content[0].schema?.properties?.find((p) => p.name === 'parent');
    expect(parent).toMatchObject({ nullable: true, variants: [{ circular: 'Item' }] });
  });
});

// OperationPage.astro rendered through Astro's Container API (no full site build): badge beside the
// title with its theme token, deprecated mark, highlighted path parameters, escaped descriptions.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getViteConfig } from 'astro/config';
import { experimental_AstroContainer } from 'astro/container';
import { createServer } from 'vite';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiPages } from '../../src/site/openapi/index.ts';
import type { OpenApiPages, OperationPageModel } from '../../src/site/openapi/index.ts';
import { contentRoot, PETSTORE_30_YAML } from './fixtures.ts';
import type { ContentRoot } from './fixtures.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');

let server: ViteDevServer;
let render: (operation: OperationPageModel) => Promise<string>;
let root: ContentRoot;
let pets: OpenApiPages;

beforeAll(async () => {
  // vitest itself has no .astro plugin: a Vite server with Astro's plugins (and no astro.config,
  // so neither role's integrations run) compiles the component.
  const config = await getViteConfig(
    { server: { middlewareMode: true, hmr: false, watch: null }, appType: 'custom', logLevel: 'silent' },
    { configFile: false, root: REPO, logLevel: 'silent' },
  )({ mode: 'production', command: 'serve' });
  server = await createServer(config);
  const { default: OperationPage } = await server.ssrLoadModule('/src/site/openapi/OperationPage.astro');
  const container = await experimental_AstroContainer.create();
  render = (operation) => container.renderToString(OperationPage, { props: { operation } });
  root = contentRoot({ 'openapi.yaml': PETSTORE_30_YAML });
  pets = await loadOpenApiPages(root.dir, 'openapi.yaml', { prefix: 'api-reference' });
});
afterAll(async () => {
  await server?.close();
  root?.remove();
});

const page = (slug: string) => pets.pages.find((p) => p.slug === slug)!;
// Dev rendering annotates elements with their source file; compare without those attributes.
const clean = (html: string) => html.replace(/ data-astro-(?:source-file|source-loc|cid-[a-z0-9]+)(?:="[^"]*")?/g, '');

describe('OperationPage', () => {
  it('shows the ApiMethod badge beside the title, coloured by its theme token', async () => {
    const html = clean(await render(page('find-a-pet')));
    expect(html).toContain(
      '<h1 class="openapi-title"><span class="api-method api-method-get" style="--method-color: var(--docs-success)" data-method="GET">GET</span> <span class="openapi-title-text" data-pagefind-meta="title">Find a pet</span></h1>',
    );
    const post = clean(await render(page('create-a-pet-operationid-collides-with-listpets-once-slugified')));
    expect(post).toContain('style="--method-color: var(--docs-info)" data-method="POST">POST</span>');
    const deleted = clean(await render(page('delete-a-pet')));
    expect(deleted).toContain('style="--method-color: var(--docs-danger)" data-method="DELETE">DELETE</span>');
  });

  it('marks deprecated operations', async () => {
    const html = clean(await render(page('delete-a-pet')));
    expect(html).toContain('data-deprecated="true"');
    expect(html).toContain('<span class="openapi-deprecated">Deprecated</span>');
    expect(clean(await render(page('find-a-pet')))).not.toContain('openapi-deprecated');
  });

  it('highlights path parameters and renders parameters by location, responses and the curl example', async () => {
    const html = clean(await render(page('find-a-pet')));
    expect(html).toContain('<span class="openapi-verb">GET</span> /pets/<span class="openapi-path-param">{petId}</span>');
    for (const id of ['path-parameters', 'query-parameters', 'header-parameters', 'cookie-parameters', 'response-200', 'response-404', 'response-default', 'example-request']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('<tr data-parameter="X-Request-Id">');
    expect(html).toContain('<span class="schema-circular">circular: Category</span>');
    expect(html).toContain('curl -X GET &#39;https://eu.pets.example.com/v2/pets/&lt;petId&gt;&#39;');
  });

  it('renders description Markdown but never the HTML or javascript: links in it', async () => {
    const html = clean(await render(page('find-a-pet')));
    expect(html).toContain('<p>Returns <strong>one</strong> pet.</p>');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('javascript:alert');
  });

  it('escapes text from the document in titles and schemas', async () => {
    const hostile: OperationPageModel = { ...page('get-health'), title: '<img src=x onerror=alert(1)>' };
    const html = clean(await render(hostile));
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
  });
});

// Folio's own documentation (the top-level content root) builds cleanly and documents every endpoint
// (the API reference is generated from src/api/openapi.json).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPONENT_NAMES } from '../../src/site/components/catalog.ts';
import { article, buildRoot, listFiles, sidebarOf, text, type BuiltSite } from './helpers.ts';
import { urlPart } from '../../src/site/openapi/index.ts';

let site: BuiltSite;
beforeAll(async () => {
  site = await buildRoot(process.cwd());
});

describe("Folio's own docs", () => {
  it('build with no warnings', () => {
    expect(site.result.error).toBeUndefined();
    expect(site.result.warnings).toEqual([]);
  });

  it('have the quickstart, configuration, API guides, authoring guide and content-root pages', () => {
    const guides = ['api', 'api/authentication', 'api/pagination', 'api/rate-limits', 'api/errors', 'api/projects', 'api/pages', 'api/deployments'];
    for (const page of ['quickstart', 'configuration', ...guides, 'authoring', 'authoring/api-method', 'authoring/snippet', 'authoring/callout', 'content-root', 'operating/several-machines', 'operating/hosts-and-domains', 'operating/build-sandbox', 'operating/admin-cli', 'operating/console', 'operating/storage-and-recovery', 'operating/postgresql']) {
      expect(site.exists(`${page}/index.html`), page).toBe(true);
    }
  });

  it('show every built-in component with an example: its source in a code block and the component rendered', () => {
    const dir = 'content/authoring/components';
    const source = [path.join('content/authoring/components.mdx'), ...fs.readdirSync(dir).map((f) => path.join(dir, f))].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    for (const name of COMPONENT_NAMES.filter((n) => !['ApiMethod', 'Snippet', 'Callout'].includes(n))) {
      // Once in an example's source and once as a rendered component (a Column in a Columns example counts too).
      expect(source.split(new RegExp(`<${name.replace('.', '\\.')}[\\s>/]`)).length, name).toBeGreaterThanOrEqual(3);
    }
    const structure = article(site.read('authoring/components/structure/index.html'));
    expect(structure).toContain('role="tablist"');
    expect(structure).toContain('<ol class="mint-steps steps"');
    expect(article(site.read('authoring/components/inline/index.html'))).toContain('<span class="katex-display">');
    expect(site.exists('_folio/vendor/mermaid/mermaid.min.js')).toBe(true);
  });

  it('generate the API reference from src/api/openapi.json: a page per endpoint with its badge, grouped by tag in the sidebar', () => {
    const document = JSON.parse(fs.readFileSync('src/api/openapi.json', 'utf8')) as { paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[] }>> };
    const operations = Object.values(document.paths).flatMap((item) => Object.entries(item).filter(([, op]) => op.operationId));
    expect(operations.length).toBeGreaterThanOrEqual(16);
    for (const [method, op] of operations) {
      // Mintlify's address: {directory}/{first tag}/{summary}.
      const slug = `${urlPart(op.tags[0])}/${urlPart(op.summary)}`;
      const html = article(site.read(`api-reference/${slug}/index.html`));
      const verb = method.toUpperCase();
      expect(html, op.operationId).toMatch(new RegExp(`<h1 class="openapi-title"[^>]*><span class="api-method[^"]*"[^>]*data-method="${verb}">${verb}</span> `));
      expect(text(html)).toContain(op.summary.replace("'", '&#39;'));
    }
    const nav = sidebarOf(site.read('api/index.html'));
    const groups = [...nav.matchAll(/<p class="group-title sidebar-group-header">([^<]+)<\/p>/g)].map((m) => m[1]);
    expect(groups).toEqual(['Get started', 'Operating', 'Writing docs', 'Components', 'API guides', 'Projects', 'Pages', 'Site files', 'Deployments', 'Meta']);
    expect(nav).toContain('data-method="POST">POST</span> Create a project</a>');
  });

  it('keep endpoint details in the generated reference only: the projects guide links to it', () => {
    const projects = article(site.read('api/projects/index.html'));
    expect(projects).not.toMatch(/<h2[^>]*><span class="api-method/);
    for (const slug of ['projects/create-a-project', 'projects/list-projects', 'projects/get-a-project', 'projects/update-a-project', 'projects/delete-a-project']) {
      expect(projects).toContain(`href="/api-reference/${slug}/"`);
    }
  });

  it('link only to pages that exist (guides to the generated reference included)', () => {
    const broken: string[] = [];
    for (const file of listFiles(site.out).filter((f) => f.endsWith('.html'))) {
      for (const [, href] of site.read(file).matchAll(/href="(\/[^"#?]*)[^"]*"/g)) {
        const target = decodeURIComponent(href ?? '/');
        if (!site.exists(target.endsWith('/') ? `${target}index.html` : target)) broken.push(`${file} -> ${href}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('show every component live in the authoring guide, snippets with vars included', () => {
    const apiMethod = article(site.read('authoring/api-method/index.html'));
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) expect(apiMethod).toContain(`data-method="${m}"`);
    const snippet = text(article(site.read('authoring/snippet/index.html')));
    expect(snippet).toContain('Hello, Ada! This sentence comes from');
    expect(snippet).toContain('Hello, &lt;b&gt;bold&lt;/b&gt;!');
    expect(snippet).toContain('npm install folio-cli');
    expect(snippet).toContain('Hello, nested snippet!');
    expect(article(site.read('authoring/callout/index.html'))).toContain('callout-warning');
  });
});

// Folio's own documentation (the top-level content root) builds cleanly and documents every endpoint.
import { beforeAll, describe, expect, it } from 'vitest';
import { article, buildRoot, text, type BuiltSite } from './helpers.ts';

let site: BuiltSite;
beforeAll(async () => {
  site = await buildRoot(process.cwd());
});

describe("Folio's own docs", () => {
  it('build with no warnings', () => {
    expect(site.result.error).toBeUndefined();
    expect(site.result.warnings).toEqual([]);
  });

  it('have the quickstart, configuration, API, authoring guide and content-root pages', () => {
    for (const page of ['quickstart', 'configuration', 'api', 'api/projects', 'api/pages', 'api/deployments', 'api/errors', 'authoring', 'authoring/api-method', 'authoring/snippet', 'authoring/callout', 'content-root']) {
      expect(site.exists(`${page}/index.html`), page).toBe(true);
    }
  });

  it('document every endpoint of CONTRACT §4 under a heading with its ApiMethod badge', () => {
    const endpoints: Array<[string, string, string]> = [
      ['api/projects', 'POST', 'Create a project'],
      ['api/projects', 'GET', 'List projects'],
      ['api/projects', 'GET', 'Get a project'],
      ['api/projects', 'PATCH', 'Update a project'],
      ['api/projects', 'DELETE', 'Delete a project'],
      ['api/pages', 'GET', 'List pages'],
      ['api/pages', 'GET', 'Get a page'],
      ['api/pages', 'POST', 'Create a page'],
      ['api/pages', 'PATCH', 'Update a page'],
      ['api/pages', 'DELETE', 'Delete a page'],
      ['api/deployments', 'POST', 'Trigger a deployment'],
      ['api/deployments', 'GET', 'List deployments'],
      ['api/deployments', 'GET', 'Get a deployment'],
      ['api/deployments', 'GET', "Read a deployment's log"],
    ];
    for (const [page, method, title] of endpoints) {
      const html = article(site.read(`${page}/index.html`));
      const heading = new RegExp(`<h2[^>]*><span class="api-method[^"]*"[^>]*data-method="${method}">${method}</span> ${title.replace("'", '(?:\'|’|&#39;)')}</h2>`);
      expect(html, `${method} ${title}`).toMatch(heading);
    }
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

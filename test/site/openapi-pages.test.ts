// OpenAPI reference pages in a real site build (docs/decisions.md#openapi-reference-pages, issue 6): one fixture content root
// naming a 3.0 YAML spec and a 3.1 JSON spec (with a $ref into a second file), built once.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { article, buildFixture, sidebarOf, text, type BuiltSite } from './helpers.ts';
import { PETSTORE_30_YAML, TODO_31, TODO_PATCH_SCHEMA } from '../openapi/fixtures.ts';

const SITE = 'https://docs.example.com';
let site: BuiltSite;

beforeAll(async () => {
  site = await buildFixture(
    {
      'content/index.mdx': '# Home\n\nWelcome.\n',
      'content/guide.mdx': '# Guide\n\nHow to use the pet store.\n',
      'specs/pets.yaml': PETSTORE_30_YAML,
      'specs/todos/openapi.json': JSON.stringify(TODO_31, null, 2),
      'specs/todos/schemas/todo-patch.json': JSON.stringify(TODO_PATCH_SCHEMA),
      'docs.json': JSON.stringify({
        name: 'Pets',
        openapi: ['specs/pets.yaml', 'specs/todos/openapi.json'],
        // A generated page named in the navigation is placed there instead of in its tag's group.
        navigation: [{ group: 'Start', pages: ['index', 'guide', 'api-reference/get-a-todo'] }],
      }),
    },
    { siteUrl: SITE },
  );
}, 180_000);

// Mintlify's addresses: {directory}/{first tag}/{summary}, else method and literal path segments.
const OPERATIONS = [
  'pets/find-a-pet', 'pets/delete-a-pet', 'pets/list-pets', 'pets/create-a-pet-operationid-collides-with-listpets-once-slugified',
  'store/inventory', 'get-health', 'get-a-todo', 'patch-todos',
];
const page = (slug: string) => site.read(`api-reference/${slug}/index.html`);
/** The h1 of a generated page. */
const title = (html: string) => /<h1 class="openapi-title"[^>]*>[\s\S]*?<\/h1>/.exec(article(html))?.[0] ?? '';

describe('generated operation pages', () => {
  it('build without warnings, one page per operation under /api-reference/, the OpenAPI files read once', () => {
    expect(site.result.error).toBeUndefined();
    expect(site.result.warnings).toEqual([]);
    for (const slug of OPERATIONS) expect(site.exists(`api-reference/${slug}/index.html`), slug).toBe(true);
    // x-hidden: true keeps the page but leaves it out of the navigation (as on Mintlify).
    expect(site.exists('api-reference/get-internal/index.html')).toBe(true);
    expect(site.result.log.filter((l) => l.startsWith('[folio] openapi:'))).toEqual([
      '[folio] openapi: specs/pets.yaml, specs/todos/openapi.json: 9 operation page(s)',
    ]);
  });

  it('put the ApiMethod badge beside the title, coloured by the method\'s theme token', () => {
    const badges: Array<[string, string, string]> = [
      ['pets/find-a-pet', 'GET', '--docs-success'],
      ['pets/create-a-pet-operationid-collides-with-listpets-once-slugified', 'POST', '--docs-info'],
      ['pets/delete-a-pet', 'DELETE', '--docs-danger'],
      ['patch-todos', 'PATCH', '--docs-primary'],
    ];
    for (const [slug, method, token] of badges) {
      const h1 = title(page(slug));
      expect(h1, slug).toMatch(
        new RegExp(`^<h1 class="openapi-title"[^>]*><span class="api-method api-method-${method.toLowerCase()}" style="--method-color: var\\(${token}\\)" data-method="${method}">${method}</span> <span class="openapi-title-text"`),
      );
    }
    expect(text(title(page('pets/find-a-pet')))).toBe('GET Find a pet');
    // The generated page's h1 is its only one (the route adds no title of its own).
    expect(article(page('pets/find-a-pet')).match(/<h1/g)).toHaveLength(1);
  });

  it('show the path, parameters by location, request body, responses and a curl example', () => {
    const pet = article(page('pets/find-a-pet'));
    expect(pet).toContain('/pets/<span class="openapi-path-param"');
    for (const id of ['path-parameters', 'query-parameters', 'header-parameters', 'cookie-parameters', 'response-200', 'response-404', 'response-default', 'example-request']) {
      expect(pet, id).toContain(`id="${id}"`);
    }
    expect(text(pet)).toContain("The pet's id");
    expect(text(pet)).toContain('curl -X GET &#39;https://eu.pets.example.com/v2/pets/&lt;petId&gt;&#39;');
    const create = article(page('pets/create-a-pet-operationid-collides-with-listpets-once-slugified'));
    expect(create).toContain('id="request-body"');
    expect(create).toContain('data-media-type="application/json"');
    expect(create).toContain('data-media-type="application/x-www-form-urlencoded"');
    // The 3.1 file's request body comes from a $ref into another file of the content root.
    const update = article(page('patch-todos'));
    expect(update).toContain('id="request-body"');
    expect(text(update)).toContain('done');
    expect(text(update)).toContain('todos:write');
  });

  it('start the playground with defaults only, the author\'s examples as placeholders (no api.examples.prefill)', () => {
    const create = article(page('pets/create-a-pet-operationid-collides-with-listpets-once-slugified'));
    const name = /<input id="try-body-name"[^>]*>/.exec(create)?.[0] ?? '';
    expect(name).toContain('placeholder="Rex"');
    expect(name).not.toContain('value=');
    // A oneOf is typed as JSON; a list of strings gets an Add button.
    expect(create).toMatch(/<textarea id="try-body-kind" data-field data-in="body" data-name="kind" data-type="json"/);
    expect(create).toContain('<button type="button" class="playground-add">Add tags item</button>');
    const pets = article(page('pets/list-pets'));
    expect(pets).toMatch(/<option value="available" selected>/);
    // A query parameter that is a list of enum values: items chosen from the enum, sent repeated.
    const find = article(page('pets/find-a-pet'));
    expect(find).toContain('<fieldset class="playground-array" id="try-query-fields" data-field data-in="query" data-name="fields" data-type="array">');
    expect(find).toMatch(/<template><li class="playground-item"><p class="playground-row"><label for="try-query-fields-__N0__"><code>fields item<\/code><\/label><select id="try-query-fields-__N0__"/);
    expect(find).toMatch(/<input id="try-header-X-Request-Id"[^>]* data-format="uuid"/);
  });

  it('mark deprecated operations, on the page and nowhere else', () => {
    expect(article(page('pets/delete-a-pet'))).toContain('<span class="openapi-deprecated"');
    expect(article(page('pets/find-a-pet'))).not.toContain('openapi-deprecated');
  });

  it('list their sections in the table of contents and link to the previous and next page in sidebar order', () => {
    const html = page('pets/find-a-pet');
    const toc = html.slice(html.indexOf('<aside class="toc"'), html.indexOf('</aside>'));
    expect(toc).toContain('<a href="#path-parameters">Path parameters</a>');
    expect(toc).toContain('<a href="#response-404">404</a>');
    expect(toc).toContain('<a href="#example-request">Example request</a>');
    const todo = page('get-a-todo');
    expect(todo).toContain('<a class="prev pagination-prev" rel="prev" href="/guide/">');
    expect(todo).toContain('<a class="next pagination-next" rel="next" href="/api-reference/store/inventory/">');
  });
});

describe('navigation, search and machine-readable files', () => {
  it('add a sidebar group per tag after the configured groups, untagged last, with method badges', () => {
    const nav = sidebarOf(site.read('guide/index.html'));
    const groups = [...nav.matchAll(/<p class="group-title sidebar-group-header">([^<]+)<\/p>/g)].map((m) => m[1]);
    expect(groups).toEqual(['Start', 'Store', 'Pets', 'Other']);
    const start = nav.slice(nav.indexOf('>Start<'), nav.indexOf('>Store<'));
    expect(start).toContain('<a href="/api-reference/get-a-todo/"><span class="api-method nav-method" style="--method-color: var(--docs-success)" data-method="GET">GET</span> Get a todo</a>');
    const pets = nav.slice(nav.indexOf('>Pets<'), nav.indexOf('>Other<'));
    expect(pets).toContain('data-method="DELETE">DELETE</span> Delete a pet</a>');
    expect(pets).toContain('data-method="POST">POST</span> Create a pet');
    const other = nav.slice(nav.indexOf('>Other<'));
    expect(other).toContain('href="/api-reference/get-health/"');
    expect(other).toContain('data-method="PATCH">PATCH</span> updateTodo</a>');
    expect(other).not.toContain('get-a-todo'); // placed by docs.json, so not repeated
    expect(nav).not.toContain('internal');
  });

  it('are in llms.txt, llms-full.txt and sitemap.xml', () => {
    const llms = site.read('llms.txt');
    expect(llms).toContain(`- [Find a pet](${SITE}/api-reference/pets/find-a-pet.md): GET /pets/{petId}`);
    expect(llms).toContain(`- [updateTodo](${SITE}/api-reference/patch-todos.md): PATCH /todos/{id}`);
    expect(llms).not.toContain('internal');
    const full = site.read('llms-full.txt');
    expect(full).toContain(`# Delete a pet\n\nSource: ${SITE}/api-reference/pets/delete-a-pet/\n\n\`DELETE /pets/{petId}\` (deprecated)`);
    expect(full).toContain("curl -X GET 'https://eu.pets.example.com/v2/pets/<petId>'");
    const sitemap = site.read('sitemap.xml');
    for (const slug of OPERATIONS) expect(sitemap).toContain(`<loc>${SITE}/api-reference/${slug}/</loc>`);
  });

  it('are indexed by Pagefind with their title and their content', () => {
    const dir = path.join(site.out, 'pagefind/fragment');
    const fragments = fs.readdirSync(dir).map((f) => {
      const raw = gunzipSync(fs.readFileSync(path.join(dir, f))).toString('utf8');
      return JSON.parse(raw.slice(raw.indexOf('{'))) as { url: string; content: string; meta: { title: string } };
    });
    const byUrl = new Map(fragments.map((f) => [f.url, f]));
    for (const slug of OPERATIONS) expect(byUrl.has(`/api-reference/${slug}/`), slug).toBe(true);
    const pet = byUrl.get('/api-reference/pets/find-a-pet/')!;
    expect(pet.meta.title).toBe('Find a pet');
    expect(pet.content).toContain('GET Find a pet');
    expect(pet.content).toContain('Include the owner');
  });
});

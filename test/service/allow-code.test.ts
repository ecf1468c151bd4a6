// The project field allow_code over HTTP, with real deployments from local git repositories: a
// project with code deploys and serves its React components; turned off, its next deployment is
// refused with the page, the line and how to enable code; an operator with FOLIO_ALLOW_CODE=false
// refuses the field, and projects that kept it build as without code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_ROOT, FIRST_CODE_LINE } from '../helpers/code-fixture.ts';
import { articleOf, deploy, latestDeployment, serverSeries, waitForDeployment, type ServerSeries } from '../helpers/deployments.ts';
import { client, getWithHost, uniqueSlug, type TestServer } from '../helpers/server.ts';
import { THEME_SCRIPT_HASH } from '../../src/site/theme-script.ts';

let series: ServerSeries;
let server: TestServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  series = await serverSeries();
  server = await series.start();
  api = client(server.url, server.defaultKey);
});
afterAll(() => series.close());

/** The script-src sources of a site answer's Content-Security-Policy. */
const scriptSources = (headers: Record<string, string | string[] | undefined>) =>
  /(?:^|;\s*)script-src ([^;]*)/.exec(String(headers['content-security-policy']))?.[1]?.split(' ');

const OPERATOR_DISABLED = 'allow_code cannot be true: the operator of this Folio server has disabled code in projects (FOLIO_ALLOW_CODE=false)';

describe('allow_code', () => {
  it('is false unless set, on every project answer, and must be a boolean', async () => {
    const created = await api('POST', '/v1/projects', { body: { name: 'Plain', slug: uniqueSlug('plain') } });
    expect(created.status).toBe(201);
    expect(created.body.allow_code).toBe(false);
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.allow_code).toBe(false);
    const listed = (await api('GET', '/v1/projects?limit=100')).body.data.find((p: { id: string }) => p.id === created.body.id);
    expect(listed.allow_code).toBe(false);

    const wrong = await api('POST', '/v1/projects', { body: { name: 'Wrong', slug: uniqueSlug('wrong'), allow_code: 'yes' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_request', message: 'allow_code must be true or false' });
    const patched = await api('PATCH', `/v1/projects/${created.body.id}`, { body: { allow_code: 1 } });
    expect(patched.status).toBe(400);
    expect(patched.body.message).toBe('allow_code must be true or false');
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.allow_code).toBe(false);
  });

  it('deploys and serves React components; turned off, the next deployment is refused and the site stays', async () => {
    const repo = series.host.repo('acme', 'widgets');
    repo.commit(CODE_ROOT);
    const slug = uniqueSlug('widgets');
    const created = await api('POST', '/v1/projects', { body: { name: 'Widgets', slug, source_repo: repo.slug, allow_code: true } });
    expect(created.status).toBe(201);
    expect(created.body.allow_code).toBe(true);
    const first = await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
    expect(first.error).toBeUndefined();
    expect(first.status).toBe('succeeded');

    const site = await getWithHost(server.url, '/', `${slug}.localhost`);
    expect(site.status).toBe(200);
    // The site may run its own scripts (island hydration is inline), on its own origin only.
    expect(scriptSources(site.headers)).toEqual(["'self'", "'wasm-unsafe-eval'", "'unsafe-inline'", "'unsafe-eval'"]);
    const article = articleOf(site.text);
    expect(article).toMatch(/<astro-island[^>]*client="load"[^>]*>\s*<button type="button" class="tally">Pressed <!-- -->3<!-- --> times<\/button>/);
    expect(article).toContain('<p class="greeting">Good morning, Ada.</p>');
    // The island's component is served from the site itself.
    const componentUrl = /component-url="([^"]+)"/.exec(article)![1];
    const component = await getWithHost(server.url, componentUrl, `${slug}.localhost`);
    expect(component.status).toBe(200);
    expect(component.headers['content-type']).toMatch(/javascript/);

    const off = await api('PATCH', `/v1/projects/${created.body.id}`, { body: { allow_code: false } });
    expect(off.status).toBe(200);
    expect(off.body.allow_code).toBe(false);
    const refused = await deploy(api, created.body.id);
    expect(refused.status).toBe('failed');
    expect(refused.error.code).toBe('build_failed');
    expect(refused.error.message).toContain(`${FIRST_CODE_LINE}: import and export are not allowed`);
    expect(refused.error.message).toMatch(/enable .*allow_code/);
    // The previous site stays live, now under the policy of a project without code.
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.status).toBe('active');
    const after = await getWithHost(server.url, '/', `${slug}.localhost`);
    expect(articleOf(after.text)).toContain('Good morning, Ada.');
    expect(scriptSources(after.headers)).toEqual(["'self'", "'wasm-unsafe-eval'", THEME_SCRIPT_HASH]);
  });

  it('lets pages written through the API hold code only while the project allows it', async () => {
    const slug = uniqueSlug('api');
    const project = (await api('POST', '/v1/projects', { body: { name: 'Api', slug, allow_code: true } })).body;
    const content = 'export const Hello = ({ who }) => <strong className="hello">Hello, {who}!</strong>;\n\n<Hello who="reader" />\n';
    const written = await api('POST', `/v1/projects/${project.id}/pages`, { body: { path: 'index', title: 'Home', content } });
    expect(written.status).toBe(201);
    expect((await deploy(api, project.id)).status).toBe('succeeded');
    expect(articleOf((await getWithHost(server.url, '/', `${slug}.localhost`)).text)).toMatch(/<strong class="hello">Hello, <!-- -->reader<!-- -->!<\/strong>/);

    await api('PATCH', `/v1/projects/${project.id}`, { body: { allow_code: false } });
    const refused = await api('POST', `/v1/projects/${project.id}/pages`, { body: { path: 'more', title: 'More', content } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/content:1:1: import and export are not allowed .*enable .*allow_code/);
  });

  it('is refused when the operator disabled code, and projects that kept it build without code', async () => {
    const repo = series.host.repo('acme', 'kept');
    repo.commit(CODE_ROOT);
    const kept = await api('POST', '/v1/projects', { body: { name: 'Kept', slug: uniqueSlug('kept'), source_repo: repo.slug, allow_code: true } });
    expect(kept.status).toBe(201);
    await waitForDeployment(api, kept.body.id, (await latestDeployment(api, kept.body.id)).id);
    await server.stop();

    const key = server.defaultKey; // printed at the first start only
    server = await series.start({ FOLIO_ALLOW_CODE: 'false' });
    api = client(server.url, key);
    const created = await api('POST', '/v1/projects', { body: { name: 'Code', slug: uniqueSlug('code'), allow_code: true } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: 'invalid_request', message: OPERATOR_DISABLED });

    const plain = await api('POST', '/v1/projects', { body: { name: 'Plain', slug: uniqueSlug('plain'), allow_code: false } });
    expect(plain.status).toBe(201);
    const on = await api('PATCH', `/v1/projects/${plain.body.id}`, { body: { allow_code: true } });
    expect(on.status).toBe(400);
    expect(on.body.message).toBe(OPERATOR_DISABLED);
    expect((await api('GET', `/v1/projects/${plain.body.id}`)).body.allow_code).toBe(false);

    // The kept project shows its setting, but its build runs without code.
    expect((await api('GET', `/v1/projects/${kept.body.id}`)).body.allow_code).toBe(true);
    const refused = await deploy(api, kept.body.id);
    expect(refused.status).toBe('failed');
    expect(refused.error.message).toContain(`${FIRST_CODE_LINE}: import and export are not allowed`);
  });
});

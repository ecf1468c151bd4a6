// The build time limit (docs/decisions.md#hosts-and-configuration FOLIO_BUILD_TIMEOUT_S, §6, §8): a deployment that runs past it
// ends `failed` with error `timeout` and says so in its log; an active project keeps its old site
// live and returns to `active`. Two servers on one data dir: a generous limit deploys the first
// version, then a 1 s limit (the smallest allowed) meets a build that cannot finish within it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, deploy, serverSeries, type ServerSeries } from '../helpers/deployments.ts';
import { client, getWithHost, uniqueSlug } from '../helpers/server.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/**
 * Pages of the second version. Here 400 pages take ~4.7 s to build (2 pages ~2 s), so the 1 s limit
 * always wins, also on a machine several times faster; a stopped build costs only the 1 s.
 */
const SLOW_PAGES = 400;

let series: ServerSeries;

beforeAll(async () => {
  series = await serverSeries();
});
afterAll(() => series.close());

describe('build time limit', () => {
  it('fails a deployment that runs past FOLIO_BUILD_TIMEOUT_S with `timeout`; the old site stays live', async () => {
    // A project without a repository: its pages are written through the API, so no git sync (which
    // the same limit bounds) can run out of the 1 s before the build does on a loaded machine.
    let server = await series.start({ FOLIO_BUILD_TIMEOUT_S: '600' });
    const key = server.defaultKey;
    const generous = client(server.url, key);
    const slug = uniqueSlug('slow');
    const created = (await generous('POST', '/v1/projects', { body: { name: 'Slow', slug } })).body;
    expect((await generous('POST', `/v1/projects/${created.id}/pages`, { body: { path: 'index', title: 'Home', content: 'Version one.' } })).status).toBe(201);
    const first = await deploy(generous, created.id);
    expect(first.status).toBe('succeeded');
    expect((await generous('GET', `/v1/projects/${created.id}`)).body.status).toBe('active');

    expect((await generous('PATCH', `/v1/projects/${created.id}/pages/index`, { body: { content: 'Version two.' } })).status).toBe(200);
    for (let i = 0; i < SLOW_PAGES; i++) {
      const content = `Text of page ${i}.\n\n## Part\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`;
      expect((await generous('POST', `/v1/projects/${created.id}/pages`, { body: { path: `guides/page-${i}`, title: `Page ${i}`, content } })).status).toBe(201);
    }
    await server.stop();

    server = await series.start({ FOLIO_BUILD_TIMEOUT_S: '1' });
    const api = client(server.url, key);
    const timedOut = await deploy(api, created.id);
    const log = (await api('GET', `/v1/projects/${created.id}/deployments/${timedOut.id}/log`)).text;
    expect(timedOut).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    expect(timedOut.error.message).toContain('took longer than 1 s');
    expect(timedOut.started_at).toMatch(ISO_MS);
    expect(timedOut.finished_at).toMatch(ISO_MS);
    // The build was stopped at the limit, not failed early for another reason.
    expect(Date.parse(timedOut.finished_at) - Date.parse(timedOut.started_at)).toBeGreaterThanOrEqual(1000);
    expect(log).toMatch(/^\S+ failed \(timeout\): build took longer than 1 s and was stopped$/m);

    // The project was active: it returns to active and its first site is still the one served.
    const project = (await api('GET', `/v1/projects/${created.id}`)).body;
    expect(project).toMatchObject({ status: 'active', last_deploy_at: first.finished_at });
    const home = await getWithHost(server.url, '/', `${slug}.localhost`, {}, 'a site page');
    expect(home.status).toBe(200);
    expect(articleOf(home.text)).toContain('Version one.');
    expect((await getWithHost(server.url, '/guides/page-0', `${slug}.localhost`, {}, 'a site page')).status).toBe(404);
  });
});

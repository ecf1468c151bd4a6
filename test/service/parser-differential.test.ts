// The attacks of a security review, replayed against a real server: content that another parser
// read differently from the build (GFM table cells, footnotes) tried to run code in the build (to
// read the server's environment through /proc) and to put script on a served page. Deployments and
// page writes must refuse all of it; no served page and no log holds the server's secret or a
// script the content brought.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { getWithHost, uniqueSlug } from '../helpers/server.ts';

const CANARY = 'canary-7f3e-in-the-server-environment';
let fixture: DeployingServer;

beforeAll(async () => {
  fixture = await startDeployingServer({ FOLIO_TEST_CANARY: CANARY });
});
afterAll(() => fixture.close());

/** Reads the server's environment from inside a build, as the review did. */
const READ_ENV = "globalThis.process.getBuiltinModule('fs').readFileSync('/proc/' + globalThis.process.ppid + '/environ', 'utf8')";

const ATTACKS: Record<string, string> = {
  'content/table.mdx': `# Table\n\n| a | b |\n|---|---|\n| \`x | <b data-leak={${READ_ENV}}>t</b> | \` |\n`,
  'content/footnote.mdx': `# Footnote\n\nNote[^1]\n\n[^1]: {${READ_ENV}}\n`,
  'content/tab-footnote.mdx': `# Tab\n\nNote[^1]\n\n[^1]:\t{${READ_ENV}}\n`,
  'content/cell.md': '# Cell\n\n| a | b |\n|---|---|\n| <img src=x onerror=alert(document.domain)> | c |\n',
  'content/note.md': '# Note\n\nSee[^1]\n\n[^1]: <img src=x onerror=alert(document.domain)>\n',
  'content/jsx-note.mdx': '# JSX\n\nSee[^1]\n\n[^1]: <img src="x" onerror="alert(document.domain)"/>\n',
};

describe('content read differently by another parser', () => {
  it('fails the deployment naming every file; the live site, the log and the error hold no secret and no event handler', async () => {
    const { api, host, server } = fixture;
    const slug = uniqueSlug('attack');
    const repo = host.repo('mallory', slug);
    repo.commit({ 'content/index.mdx': '# Welcome\n\nThe good version.\n' });
    const created = await api('POST', '/v1/projects', { body: { name: 'Attack', slug, source_repo: repo.slug } });
    expect(created.status).toBe(201);
    const first = await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
    expect(first.status).toBe('succeeded');

    repo.commit(ATTACKS);
    const done = await deploy(api, created.body.id);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('build_failed');
    for (const file of Object.keys(ATTACKS)) expect(done.error.message).toContain(`${file}:`);
    const log = await api('GET', `/v1/projects/${created.body.id}/deployments/${done.id}/log`);
    expect(`${log.text}\n${done.error.message}`).not.toContain(CANARY);

    for (const urlPath of ['/', '/table/', '/footnote/', '/tab-footnote/', '/cell/', '/note/', '/jsx-note/']) {
      const res = await getWithHost(server.url, urlPath, `${slug}.localhost`);
      expect(res.text).not.toContain(CANARY);
      expect(res.text).not.toMatch(/\son[a-z]+\s*=/i);
      expect(res.text).not.toContain('alert(document.domain)');
    }
    expect((await getWithHost(server.url, '/', `${slug}.localhost`)).text).toContain('The good version.');
  });

  it('refuses the same content written through the pages API, so a later deployment builds only what passed', async () => {
    const { api, server } = fixture;
    const slug = uniqueSlug('apiattack');
    const created = await api('POST', '/v1/projects', { body: { name: 'API attack', slug } });
    for (const [file, text] of Object.entries(ATTACKS).filter(([f]) => f.endsWith('.mdx'))) {
      const res = await api('POST', `/v1/projects/${created.body.id}/pages`, { body: { path: file.slice('content/'.length, -'.mdx'.length), title: 'T', content: text } });
      expect(res.status, file).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
    expect((await api('POST', `/v1/projects/${created.body.id}/pages`, { body: { path: 'index', title: 'Home', content: 'Fine.\n' } })).status).toBe(201);
    const done = await deploy(api, created.body.id);
    expect(done).toMatchObject({ status: 'succeeded', page_count: 1 });
    const res = await getWithHost(server.url, '/', `${slug}.localhost`);
    expect(res.text).toContain('Fine.');
    expect(res.text).not.toMatch(/\son[a-z]+\s*=/i);
  });
});

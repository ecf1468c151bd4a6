// The Astro cache a build leaves is carried to the next fast redeploy of the same site
// (src/builder/build-cache.ts) and given there to the new sandbox's uid. It is a tenant build's
// output: a build that ran code in its sandbox may leave a link in it. Through the real server, a
// fast redeploy over a kept cache holding a link (put there as that build would have) changes
// nothing of what the link points to, and the deployment goes on without the cache.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { getWithHost, uniqueSlug } from '../helpers/server.ts';
import { CACHES_DIR } from '../../src/builder/build-roots.ts';

let fixture: DeployingServer;
beforeAll(async () => {
  fixture = await startDeployingServer();
});
afterAll(() => fixture?.close());

/** Where build-cache.ts keeps a site's cache under a name (its slot: hashes of both). */
const keptCache = (site: string, name: string) => {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
  return path.join(CACHES_DIR, hash(site), hash(name));
};

const page = (title: string, text: string) => `---\ntitle: ${title}\n---\n\n${text}\n`;

describe('a link in the Astro cache a build left', () => {
  it('is not followed when the next fast redeploy is given the cache: what it points to keeps its owner', async () => {
    const victim = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-victim-'));
    const victimFile = path.join(victim, 'server-file.txt');
    fs.writeFileSync(victimFile, 'the server\'s\n');
    const owner = fs.statSync(victimFile).uid;
    try {
      const repo = fixture.host.repo('mallory', 'cache-link');
      repo.commit({ 'docs.json': JSON.stringify({ name: 'Cache Link' }), 'content/index.mdx': page('Home', 'First text.'), 'content/other.mdx': page('Other', 'Other text.') });
      const slug = uniqueSlug('cache-link');
      const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Cache Link', slug, source_repo: repo.slug } });
      expect(created.status).toBe(201);
      const projectId: string = created.body.id;
      const first = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
      expect(first.status).toBe('succeeded');
      const kept = keptCache(`${projectId}:`, first.id);
      expect(fs.lstatSync(kept).isDirectory()).toBe(true);
      fs.symlinkSync(victim, path.join(kept, 'elsewhere'));

      repo.commit({ 'content/index.mdx': page('Home', 'Second text.') });
      const res = await fixture.api('POST', `/v1/projects/${projectId}/deployments`, {});
      expect(res.status).toBe(202);
      const fast = await waitForDeployment(fixture.api, projectId, res.body.id);
      expect(fs.statSync(victim).uid).toBe(owner);
      expect(fs.statSync(victimFile).uid).toBe(owner);
      expect(fast.status).toBe('succeeded');
      const log: string = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${fast.id}/log`)).text;
      expect(log).toContain('build: fast');
      expect(log).not.toContain('content cache:');
      expect((await getWithHost(fixture.server.url, '/', `${slug}.localhost`)).text).toContain('Second text.');
    } finally {
      fs.rmSync(victim, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('a list of validated OpenAPI files in the Astro cache a build left', () => {
  it('does not spare a fast redeploy the validation of a file no check passed: the page stays the author\'s', async () => {
    // Discovered in the root, never named, and invalid (a parameter without `in`): every build
    // validates it, finds it broken and leaves it out, so the page naming its operation shows its own text.
    const broken = `openapi: 3.1.0\ninfo:\n  title: Unchecked\n  version: '1'\npaths:\n  /gadgets:\n    get:\n      summary: Gadgets from an unchecked file\n      parameters:\n        - name: limit\n          schema:\n            type: integer\n      responses:\n        '200':\n          description: ok\n`;
    const gadgets = (text: string) => `---\ntitle: Gadgets\nopenapi: GET /gadgets\n---\n\n${text}\n`;
    // A valid file whose operation a page shows: the site has the assets of an operation page.
    const valid = JSON.stringify({ openapi: '3.1.0', info: { title: 'Widgets', version: '1' }, paths: { '/widgets': { get: { summary: 'List widgets', responses: { '200': { description: 'ok' } } } } } });
    const widgets = '---\ntitle: Widgets\nopenapi: api/openapi.json GET /widgets\n---\n\nWidgets text.\n';
    const repo = fixture.host.repo('mallory', 'cache-specs');
    repo.commit({ 'docs.json': JSON.stringify({ name: 'Cache Specs' }), 'api/openapi.json': valid, 'content/index.mdx': page('Home', 'Home text.'), 'content/widgets.mdx': widgets, 'content/gadgets.mdx': gadgets('First text by the author.'), 'specs/gadgets.yaml': broken });
    const slug = uniqueSlug('cache-specs');
    const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Cache Specs', slug, source_repo: repo.slug } });
    expect(created.status).toBe(201);
    const projectId: string = created.body.id;
    const first = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
    expect(first.status).toBe('succeeded');
    const served = async (urlPath: string) => (await getWithHost(fixture.server.url, urlPath, `${slug}.localhost`)).text;
    const redeploy = async (files: Record<string, string>) => {
      repo.commit(files);
      const res = await fixture.api('POST', `/v1/projects/${projectId}/deployments`, {});
      expect(res.status).toBe(202);
      const done = await waitForDeployment(fixture.api, projectId, res.body.id);
      expect(done.status).toBe('succeeded');
      return { id: done.id as string, log: (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${done.id}/log`)).text as string };
    };
    // The author's page links to the assets of an operation page: a fast build that turned it into
    // one is not refused for using other assets (output.ts, reuseRefusal), its output is served.
    const assets = [...new Set((await served('/widgets/')).match(/\/_astro\/[^"'\s)>]+/g) ?? [])].map((asset) => `[asset](${asset})`).join(' ');
    const second = await redeploy({ 'content/gadgets.mdx': gadgets(`First text by the author. ${assets}`) });
    expect(await served('/gadgets/')).toContain('First text by the author.');

    // What a build that ran code in its sandbox could leave: the digest of the broken file, as the build computes it.
    const bytes = Buffer.from(broken);
    const digest = createHash('sha256').update('openapi\0').update(`specs/gadgets.yaml\0${bytes.length}\0`).update(bytes).update('\0').digest('hex');
    const listed = path.join(keptCache(`${projectId}:`, second.id), 'folio-validated-specs.json');
    fs.rmSync(listed, { force: true });
    fs.writeFileSync(listed, JSON.stringify([`openapi:${digest}`]));

    const fast = await redeploy({ 'content/gadgets.mdx': gadgets(`Second text by the author. ${assets}`) });
    expect(fast.log).toContain('build: fast');
    expect(fast.log).toContain("content cache: the previous build's");
    expect(fast.log).not.toContain('build: full');
    // The file the server's check passed is not validated again; the one no check passed is.
    expect(fast.log).toContain('[folio] openapi: api/openapi.json: unchanged since the previous build, not validated again');
    expect(fast.log).not.toContain('specs/gadgets.yaml: unchanged since the previous build');
    const shown = await served('/gadgets/');
    expect(shown).toContain('Second text by the author.');
    expect(shown).not.toContain('Gadgets from an unchecked file');
  }, 240_000);
});

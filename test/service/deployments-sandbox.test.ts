// Deployments through the real server build in the bubblewrap sandbox (warm worker included), show
// tenants no server paths, and fail with sandbox_unavailable when the sandbox is required but
// bubblewrap cannot run (FOLIO_BWRAP_PATH pointing at a missing binary).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, deploy, serverSeries, waitForDeployment, startDeployingServer, type DeployingServer, type ServerSeries } from '../helpers/deployments.ts';
import { client, getWithHost, uniqueSlug } from '../helpers/server.ts';
import { contentRootDir, gitDir } from '../../src/service/project-files.ts';
import { keptTree } from '../../src/service/deployments/sync.ts';

const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

/** The pids of a process's descendants whose program is `name`. */
function descendantsNamed(pid: number, name: string): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = (p: number): boolean => {
    for (let q = parents.get(p); q !== undefined && q > 1; q = parents.get(q)) if (q === pid) return true;
    return false;
  };
  return [...parents.keys()].filter((p) => below(p) && fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim() === name);
}

describe('deployments in the sandbox', () => {
  let fixture: DeployingServer;
  beforeAll(async () => {
    fixture = await startDeployingServer({ FOLIO_SANDBOX: 'required' });
  });
  afterAll(() => fixture.close());

  async function project(files: Record<string, string>) {
    const repo = fixture.host.repo('acme', uniqueSlug('docs'));
    repo.commit(files);
    const slug = uniqueSlug('sbx');
    const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Sandboxed', slug, source_repo: repo.slug } });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, slug, repo };
  }

  it('builds and serves a site, twice in the same warm worker, which runs under bwrap', async () => {
    const p = await project({ 'content/index.mdx': '# Home\n\nFIRST-VERSION\n' });
    const first = await deploy(fixture.api, p.id);
    expect(first.status, JSON.stringify(first.error)).toBe('succeeded');
    const workers = descendantsNamed(fixture.server.process.pid!, 'bwrap');
    expect(workers.length).toBeGreaterThan(0);

    p.repo.commit({ 'content/index.mdx': '# Home\n\nSECOND-VERSION\n' });
    const second = await deploy(fixture.api, p.id);
    expect(second.status, JSON.stringify(second.error)).toBe('succeeded');
    expect(descendantsNamed(fixture.server.process.pid!, 'bwrap')).toEqual(expect.arrayContaining(workers));

    const page = await getWithHost(fixture.server.url, '/', `${p.slug}.localhost`);
    expect(page.status).toBe(200);
    expect(articleOf(page.text)).toContain('SECOND-VERSION');
    const log = await fixture.api('GET', `/v1/projects/${p.id}/deployments/${second.id}/log`);
    expect(log.text).toContain('checking content (the build runs in the sandbox)');
  });

  it('moves the snapshot into the sandbox whole; content it cannot move so (a file others cannot read, a node_modules folder) is linked file by file, and every site builds', async () => {
    const logOf = async (projectId: string, deploymentId: string) => (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deploymentId}/log`)).text;
    const fullBuild = async (projectId: string) => {
      const queued = await fixture.api('POST', `/v1/projects/${projectId}/deployments`, { body: { full_build: true } });
      expect(queued.status).toBe(202);
      const built = await waitForDeployment(fixture.api, projectId, queued.body.id);
      expect(built.status, JSON.stringify(built.error)).toBe('succeeded');
      return { built, log: await logOf(projectId, built.id) };
    };
    const article = async (slug: string, urlPath: string) => articleOf((await getWithHost(fixture.server.url, urlPath, `${slug}.localhost`)).text);

    const p = await project({ 'content/index.mdx': '# Home\n\nMOVED-IN\n', 'content/guide.mdx': '# Guide\n\nGUIDE-TEXT\n' });
    const moved = await deploy(fixture.api, p.id);
    expect(moved.status, JSON.stringify(moved.error)).toBe('succeeded');
    expect(await logOf(p.id, moved.id)).toContain('sandbox input: the snapshot moved in whole (no file linked)');
    expect(await article(p.slug, '/')).toContain('MOVED-IN');
    expect(await article(p.slug, '/guide')).toContain('GUIDE-TEXT');

    // A file only its owner may read (an operator's restore, a umask): the sandbox's uid gets a copy of it.
    const guide = path.join(keptTree(gitDir(fixture.server.dataDir, p.id), contentRootDir(fixture.server.dataDir, p.id)).tree, 'content/guide.mdx');
    fs.chmodSync(guide, 0o600);
    p.repo.commit({ 'content/index.mdx': '# Home\n\nSECOND-VERSION\n' });
    const linked = await fullBuild(p.id);
    expect(linked.log).toContain('sandbox input: the content\'s files linked one by one (the snapshot cannot be moved in whole: "content/guide.mdx" cannot be taken as it is)');
    expect(await article(p.slug, '/')).toContain('SECOND-VERSION');
    expect(await article(p.slug, '/guide')).toContain('GUIDE-TEXT');

    // node_modules never reaches the sandbox.
    const q = await project({ 'content/index.mdx': '# Home\n\nWITH-MODULES\n', 'node_modules/left-pad/index.js': 'module.exports = 1;\n' });
    const withModules = await deploy(fixture.api, q.id);
    expect(withModules.status, JSON.stringify(withModules.error)).toBe('succeeded');
    expect(await logOf(q.id, withModules.id)).toContain('(the snapshot cannot be moved in whole: "node_modules" cannot be taken as it is)');
    expect(await article(q.slug, '/')).toContain('WITH-MODULES');
  });

  it('a missing image is a warning that names it; an image file that is not an image fails the deployment, naming it and no server path', async () => {
    // A missing file is a broken image, as Mintlify renders it (docs/decisions.md, relative images).
    const missing = await project({ 'content/index.md': '# Home\n\n![diagram](./images/missing.png)\n' });
    // A full build (a redeploy of the same commit would reuse the connect deployment's pages and say nothing of them).
    const queued = await fixture.api('POST', `/v1/projects/${missing.id}/deployments`, { body: { full_build: true } });
    expect(queued.status).toBe(202);
    const built = await waitForDeployment(fixture.api, missing.id, queued.body.id);
    expect(built.status, JSON.stringify(built.error)).toBe('succeeded');
    const warned = (await fixture.api('GET', `/v1/projects/${missing.id}/deployments/${built.id}/log`)).text;
    expect(warned).toContain('[folio] warning: content/index.md: image ./images/missing.png: no file content/images/missing.png in the content root');
    expect(warned).not.toContain(fixture.server.dataDir);

    // A file that exists but is no image fails Astro's asset step inside the sandbox.
    const p = await project({ 'content/index.md': '# Home\n\n![diagram](./images/broken.png)\n', 'content/images/broken.png': 'not a png\n' });
    const failed = await deploy(fixture.api, p.id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('build_failed');
    const log = (await fixture.api('GET', `/v1/projects/${p.id}/deployments/${failed.id}/log`)).text;
    for (const text of [failed.error.message as string, log]) {
      expect(text).toContain('Could not process image metadata for `content/images/broken.png`');
      expect(text).not.toContain('../'); // (Astro's own "Collecting build info..." is not a path)
      expect(text).not.toMatch(/^\s+at /m); // no stack frames
      expect(text).not.toContain(fixture.server.dataDir);
      expect(text).not.toContain('node_modules');
      expect(text).not.toContain(ROOT);
      expect(text).not.toContain('.folio-builds');
      expect(text).not.toContain('/input/');
    }
  });
});

describe('FOLIO_SANDBOX=required without bubblewrap', () => {
  let series: ServerSeries;
  afterAll(() => series.close());

  it('warns at start and fails each deployment with sandbox_unavailable, naming nothing of the server', async () => {
    series = await serverSeries();
    const server = await series.start({ FOLIO_SANDBOX: 'required', FOLIO_BWRAP_PATH: '/nonexistent/bwrap' });
    expect(await server.waitForOutput(/WARNING: the build sandbox/)).toMatch(/WARNING: the build sandbox cannot run here \(.*\/nonexistent\/bwrap.*\)\. FOLIO_SANDBOX=required/);
    const api = client(server.url, server.defaultKey);
    const repo = series.host.repo('acme', 'docs');
    repo.commit({ 'content/index.mdx': '# Home\n\nHello.\n' });
    const created = await api('POST', '/v1/projects', { body: { name: 'No sandbox', slug: uniqueSlug('nosbx'), source_repo: repo.slug } });
    const failed = await deploy(api, created.body.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({
      code: 'sandbox_unavailable',
      message: 'builds must run in the build sandbox, which is not available on this server; its operator must install bubblewrap',
    });
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.status).toBe('failed');
  });
});

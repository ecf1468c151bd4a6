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

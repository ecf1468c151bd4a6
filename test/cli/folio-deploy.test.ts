// `folio deploy`, as a docs repository's CI job runs it: the installed command, FOLIO_URL and
// FOLIO_API_KEY in its environment, against a real server that syncs the repository over file://.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { installFolio, type InstalledFolio } from '../helpers/folio-cli.ts';
import { uniqueSlug } from '../helpers/server.ts';
import type { TestRepo } from '../helpers/git-repos.ts';

let fixture: DeployingServer;
let folio: InstalledFolio;
let repo: TestRepo;
let slug: string;
let projectId: string;
let cwd: string;
let env: Record<string, string>;

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

beforeAll(async () => {
  folio = installFolio();
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ci-'));
  fixture = await startDeployingServer();
  repo = fixture.host.repo('acme', 'handbook');
  repo.commit({ 'docs.json': JSON.stringify({ name: 'Handbook', navigation: { pages: ['index'] } }), 'index.mdx': page('Home', 'First edition.') });
  slug = uniqueSlug('handbook');
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Handbook', slug, source_repo: repo.slug } });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
  env = { FOLIO_URL: fixture.server.url, FOLIO_API_KEY: fixture.server.defaultKey! };
}, 240_000);

afterAll(async () => {
  folio.remove();
  fs.rmSync(cwd, { recursive: true, force: true });
  await fixture?.close();
});

describe('folio deploy', () => {
  it('--wait follows the log of a deployment that succeeds and exits 0', async () => {
    const sha = repo.commit({ 'index.mdx': page('Home', 'Second edition.') });
    const { code, stdout } = await folio.run(cwd, ['deploy', '--project', slug, '--wait'], env);
    expect(stdout).toContain(`sync: acme/handbook`);
    expect(stdout).toContain(sha);
    expect(stdout).toMatch(/^deployment [0-9a-f-]{36} succeeded: /m);
    expect(code).toBe(0);
    const latest = await latestDeployment(fixture.api, projectId);
    expect(latest).toMatchObject({ status: 'succeeded', commit_sha: sha, trigger: 'manual' });
  });

  it('--wait exits 1 with the build errors of a deployment that fails', async () => {
    repo.commit({ 'index.mdx': page('Home', 'Broken {expression') });
    const { code, stdout } = await folio.run(cwd, ['deploy', '--project', projectId, '--wait'], env);
    expect(stdout).toMatch(/build: error: index\.mdx:\d+:\d+: /);
    expect(stdout).toMatch(/^deployment [0-9a-f-]{36} failed: build_failed: /m);
    expect(code).toBe(1);
  });

  it('says what is missing or wrong and deploys nothing', async () => {
    const before = (await latestDeployment(fixture.api, projectId)).id;
    const noKey = await folio.run(cwd, ['deploy'], { FOLIO_URL: env.FOLIO_URL });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('FOLIO_API_KEY is not set');
    const unknown = await folio.run(cwd, ['deploy', '--project', 'no-such-docs'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`--project: no project with the slug or id "no-such-docs" for this key (its projects: ${slug})`);
    const badKey = await folio.run(cwd, ['deploy', '--project', projectId], { ...env, FOLIO_API_KEY: 'folio_not-a-real-key' });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('answered 401 unauthorized');
    expect((await latestDeployment(fixture.api, projectId)).id).toBe(before);
  });
});

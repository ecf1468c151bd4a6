// Continuous deployment over HTTP against a real server and real local repositories (issue 13):
// signed push webhooks, replays, previews, promote, cancel, events out with signatures and
// retries, log streaming, a log complete at the end, polling, and the webhook address rules.
import { createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/service/deployments/events.ts';
import { keptTree } from '../../src/service/deployments/sync.ts';
import { contentRootDir, gitDir, previewRootDir } from '../../src/service/project-files.ts';
import { articleOf, serverSeries, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { TestRepo } from '../helpers/git-repos.ts';
import { client, getWithHost, uniqueSlug, type Json } from '../helpers/server.ts';

const SITE = 'a site host, outside the API contract';

const pages = (version: string) => ({
  'docs.json': JSON.stringify({ name: 'CD Docs', navigation: [{ group: 'Guide', pages: ['index', 'guide'] }] }),
  'content/index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
  'content/guide.mdx': `---\ntitle: Guide\n---\n\nThis is ${version}.\n`,
});

/** A local HTTP receiver of event webhooks: records each request; answers `status`. */
async function receiver(status: number) {
  const requests: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, requests, close: () => new Promise((r) => server.close(r)) };
}

/** The kept trees of the sync and their index files in a project's clone folder (sync.ts keptTree). */
async function keptTreeFiles(gitDir: string): Promise<string[]> {
  return (await readdir(gitDir)).filter((name) => name.startsWith('folio-root-')).sort();
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 60): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A project connected to `repo`, once its connect deployment has succeeded. */
async function connectedProject(cd: DeployingServer, repo: TestRepo, name: string, slug: string): Promise<Json> {
  const project = (await cd.api('POST', '/v1/projects', { body: { name, slug: uniqueSlug(slug), source_repo: repo.slug } })).body;
  const first = await until('the connect deployment', async () => (await cd.api('GET', `/v1/projects/${project.id}/deployments?limit=1`)).body.data[0]);
  expect((await waitForDeployment(cd.api, project.id, first.id)).status).toBe('succeeded');
  return project;
}

describe('push webhooks, previews, promote, cancel, events out, log streaming', () => {
  let cd: DeployingServer;
  let repo: TestRepo;
  let project: Json;
  let secret: string;
  let hookPath: string;
  let firstDeployment: Json;
  let ok: Awaited<ReturnType<typeof receiver>>;
  let failing: Awaited<ReturnType<typeof receiver>>;
  let okHook: Json;
  let failingHook: Json;

  /** A GitHub-style delivery: the raw body signed with `key`. */
  const push = (body: object, { key = secret, event = 'push', delivery = crypto.randomUUID(), headers = {} as Record<string, string> } = {}) => {
    const raw = JSON.stringify(body);
    return cd.api('POST', hookPath, {
      body: raw,
      headers: {
        'x-github-event': event,
        'x-github-delivery': delivery,
        'x-hub-signature-256': `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`,
        ...headers,
      },
    });
  };
  const site = (path = '/guide', host = `${project.slug}.localhost`) => getWithHost(cd.server.url, path, host, {}, SITE);
  const tlsAllowed = (host: string) => getWithHost(cd.server.url, `/internal/tls-allowed?domain=${encodeURIComponent(host)}`, '127.0.0.1');
  const deploymentsCount = async () => (await cd.api('GET', `/v1/projects/${project.id}/deployments?limit=100`)).body.data.length;

  beforeAll(async () => {
    cd = await startDeployingServer({ FOLIO_WEBHOOK_ALLOW_PRIVATE: '1' });
    ok = await receiver(200);
    failing = await receiver(500);
    repo = cd.host.repo('acme', 'cd-docs');
    repo.commit(pages('version one'));
    const created = await cd.api('POST', '/v1/projects', { body: { name: 'CD', slug: uniqueSlug('cd'), source_repo: repo.slug, previews: true } });
    expect(created.status).toBe(201);
    project = created.body;
    expect(project.previews).toBe(true);
    firstDeployment = await waitForDeployment(cd.api, project.id, (await cd.api('GET', `/v1/projects/${project.id}/deployments?limit=1`)).body.data[0].id);
    expect(firstDeployment.status).toBe('succeeded');
    okHook = (await cd.api('POST', `/v1/projects/${project.id}/webhooks`, { body: { url: ok.url } })).body;
    failingHook = (await cd.api('POST', `/v1/projects/${project.id}/webhooks`, { body: { url: failing.url, events: ['deployment.succeeded'] } })).body;
  });
  afterAll(async () => {
    await cd?.close();
    await ok?.close();
    await failing?.close();
  });

  it('creates the push webhook secret once, with its delivery URL; a bad or missing signature is 401 and queues nothing', async () => {
    const res = await cd.api('POST', `/v1/projects/${project.id}/webhook-secret`);
    expect(res.status).toBe(200);
    secret = res.body.secret;
    expect(res.body.url).toMatch(new RegExp(`^http://localhost:\\d+/hooks/git/${project.id}$`));
    hookPath = new URL(res.body.url).pathname;
    expect((await cd.api('GET', `/v1/projects/${project.id}`)).text).not.toContain(secret);

    const before = await deploymentsCount();
    const sha = repo.commit({ 'content/guide.mdx': '---\ntitle: Guide\n---\n\nThis is version two.\n' });
    const body = { ref: 'refs/heads/main', after: sha };
    expect((await push(body, { key: 'not-the-secret' })).status).toBe(401);
    const unsigned = await cd.api('POST', hookPath, { body, headers: { 'x-github-event': 'push' } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toBe('unauthorized');
    expect((await push(body, { headers: { 'x-hub-signature-256': 'sha256=00' } })).status).toBe(401);
    // An unknown project answers like a wrong signature.
    expect((await cd.api('POST', `/hooks/git/${crypto.randomUUID()}`, { body })).status).toBe(401);
    expect(await deploymentsCount()).toBe(before);
  });

  it('a signed push deploys the pushed commit; the followed log streams until the end and is complete when the status says so; a replay is ignored', async () => {
    const sha = repo.commit({ 'content/guide.mdx': '---\ntitle: Guide\n---\n\nThis is version three.\n' });
    const delivery = crypto.randomUUID();
    const res = await push({ ref: 'refs/heads/main', after: sha }, { delivery });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', branch: 'main' });
    const id = res.body.deployment_id;

    // Follow: the answer streams the log and ends once the deployment has ended.
    const streamed = await fetch(`${cd.server.url}/v1/projects/${project.id}/deployments/${id}/log?follow=1`, {
      headers: { authorization: `Bearer ${cd.server.defaultKey}` },
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await streamed.text();
    const ended = (await cd.api('GET', `/v1/projects/${project.id}/deployments/${id}`)).body;
    expect(ended.status).toBe('succeeded');
    expect(text).toContain(`deployment ${id} (push) started`);
    expect(text).toContain(`sync: main is at commit ${sha}`);
    // The last lines: the site live, then the reuse copy for the next fast redeploy (made before the status says succeeded).
    expect(text).toMatch(/publish: live at http:\/\/.+\/\n(\S+ reuse: .+\n)?$/);
    expect(ended).toMatchObject({ trigger: 'push', commit_sha: sha });
    // The log read right after the status said succeeded holds every line.
    expect((await cd.api('GET', `/v1/projects/${project.id}/deployments/${id}/log`)).text).toBe(text);
    expect(articleOf((await site()).text)).toContain('This is version three.');

    const count = await deploymentsCount();
    const replay = await push({ ref: 'refs/heads/main', after: sha }, { delivery });
    expect(replay.status).toBe(202);
    expect(replay.body.status).toBe('duplicate');
    expect((await push({ zen: 'hi' }, { event: 'ping' })).body).toEqual({ status: 'pong' });
    expect((await push({ ref: 'refs/tags/v1' })).body.status).toBe('ignored');
    const gitlab = await cd.api('POST', hookPath, { body: { ref: 'refs/heads/main' }, headers: { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' } });
    expect(gitlab.status).toBe(401);
    expect(await deploymentsCount()).toBe(count);
  });

  it('sends signed events to the receivers and retries a failing one, recording each delivery', async () => {
    const deliveries = async (hook: Json) => (await cd.api('GET', `/v1/projects/${project.id}/webhooks/${hook.id}/deliveries`)).body.data;
    const received = await until('started and succeeded events', async () => {
      const types = ok.requests.map((r) => JSON.parse(r.body).type);
      return types.includes('deployment.started') && types.includes('deployment.succeeded') ? ok.requests : undefined;
    });
    for (const request of received) {
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['folio-signature']));
      expect(match).not.toBeNull();
      expect(match![2]).toBe(createHmac('sha256', okHook.secret).update(`${match![1]}.${request.body}`).digest('hex'));
      expect(request.headers['folio-event']).toBe(JSON.parse(request.body).type);
    }
    const succeeded = JSON.parse(received.find((r) => JSON.parse(r.body).type === 'deployment.succeeded')!.body);
    expect(succeeded.data.deployment).toMatchObject({ project_id: project.id, status: 'succeeded' });
    const okDeliveries = await until('recorded deliveries', async () => {
      const list = await deliveries(okHook);
      return list.length >= 2 && list.every((d: Json) => d.status === 'succeeded') ? list : undefined;
    });
    expect(okDeliveries[0]).toMatchObject({ attempts: 1, response_code: 200 });

    // The failing receiver answers 500: the delivery stays pending and is tried again.
    const retried = await until('a retried delivery', async () => (await deliveries(failingHook)).find((d: Json) => d.attempts >= 2), 30);
    expect(retried).toMatchObject({ event: 'deployment.succeeded', status: 'pending', response_code: 500, last_error: 'answered 500' });
    expect(retried.next_attempt_at > retried.last_attempt_at).toBe(true);
    expect(failing.requests.length).toBeGreaterThanOrEqual(2);
    // Every event is listed, never the secret.
    const list = await cd.api('GET', `/v1/projects/${project.id}/webhooks`);
    expect(list.body.data.map((w: Json) => w.id)).toEqual([okHook.id, failingHook.id]);
    expect(list.text).not.toContain(okHook.secret);
    expect((await cd.api('DELETE', `/v1/projects/${project.id}/webhooks/${failingHook.id}`)).status).toBe(204);
    expect((await cd.api('GET', `/v1/projects/${project.id}/webhooks/${failingHook.id}/deliveries`)).status).toBe(404);
  });

  it('a push to another branch builds a preview on its own host, noindex, without touching the live site; deleting the branch removes it', async () => {
    const branch = 'feature/new-guide';
    const sha = repo.commit({ 'content/guide.mdx': '---\ntitle: Guide\n---\n\nThis is the preview.\n' }, branch);
    const res = await push({ ref: `refs/heads/${branch}`, after: sha });
    expect(res.status).toBe(202);
    expect(res.body.preview_url).toMatch(new RegExp(`^http://feature-new-guide-[0-9a-f]{6}--${project.slug}\\.localhost:\\d+/$`));
    const deployment = await waitForDeployment(cd.api, project.id, res.body.deployment_id);
    expect(deployment).toMatchObject({ status: 'succeeded', branch, commit_sha: sha, preview_url: res.body.preview_url });
    const previewHost = new URL(res.body.preview_url).hostname;
    const preview = await site('/guide', previewHost);
    expect(preview.status).toBe(200);
    expect(preview.headers['x-robots-tag']).toBe('noindex');
    expect(articleOf(preview.text)).toContain('This is the preview.');
    // A TLS certificate only for the preview that is live: any other label of the project is no site.
    expect((await tlsAllowed(previewHost)).status).toBe(200);
    for (const other of [`anything--${project.slug}.localhost`, `feature-new-guide-000000--${project.slug}.localhost`]) {
      expect((await tlsAllowed(other)).status, other).toBe(404);
    }
    const live = await site();
    expect(articleOf(live.text)).toContain('This is version three.');
    expect(live.headers['x-robots-tag']).toBeUndefined();
    expect((await cd.api('GET', `/v1/projects/${project.id}`)).body.status).toBe('active');

    // The sync keeps a tree of each content root beside the clone: the project's and the preview's.
    const git = gitDir(cd.server.dataDir, project.id);
    const production = keptTree(git, contentRootDir(cd.server.dataDir, project.id));
    const label = new URL(res.body.preview_url).hostname.split('--')[0];
    const previewTree = keptTree(git, previewRootDir(cd.server.dataDir, project.id, label));
    expect(await keptTreeFiles(git)).toEqual([production.tree, production.index, previewTree.tree, previewTree.index].map((p) => path.basename(p)).sort());

    const removed = await push({ ref: `refs/heads/${branch}`, after: '0'.repeat(40), deleted: true });
    expect(removed.body).toEqual({ status: 'preview_removed', branch });
    expect((await site('/guide', previewHost)).status).toBe(404);
    expect((await tlsAllowed(previewHost)).status).toBe(404);
    expect(articleOf((await site()).text)).toContain('This is version three.');
    // Its kept tree went with it; production's stays (the next push writes only what changed).
    expect(await keptTreeFiles(git)).toEqual([production.tree, production.index].map((p) => path.basename(p)).sort());
    expect(await readFile(path.join(production.tree, 'content/guide.mdx'), 'utf8')).toContain('This is version three.');
  });

  it('deleting a preview branch while its deployment is queued cancels it; the preview and its kept tree stay gone', async () => {
    const git = gitDir(cd.server.dataDir, project.id);
    const before = await keptTreeFiles(git);
    const branch = 'feature-short-lived';
    // A production deployment first: the preview's waits behind it (one build per project at a time).
    const production = await push({ ref: 'refs/heads/main', after: repo.commit({ 'content/index.mdx': '---\ntitle: Home\n---\n\nWelcome back.\n' }) });
    const sha = repo.commit({ 'content/guide.mdx': '---\ntitle: Guide\n---\n\nShort-lived.\n' }, branch);
    const queued = await push({ ref: `refs/heads/${branch}`, after: sha });
    expect(queued.status).toBe(202);
    repo.deleteBranch(branch);
    const removed = await push({ ref: `refs/heads/${branch}`, after: '0'.repeat(40), deleted: true });
    expect(removed.body).toEqual({ status: 'preview_removed', branch });
    const preview = await waitForDeployment(cd.api, project.id, queued.body.deployment_id);
    expect(preview.status).toBe('canceled');
    expect((await waitForDeployment(cd.api, project.id, production.body.deployment_id)).status).toBe('succeeded');
    expect((await site('/guide', new URL(queued.body.preview_url).hostname)).status).toBe(404);
    expect(await keptTreeFiles(git)).toEqual(before);
  });

  it('promote makes an earlier build live at once, without a build; cancel stops a deployment and refuses an ended one', async () => {
    const res = await cd.api('POST', `/v1/projects/${project.id}/deployments/${firstDeployment.id}/promote`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trigger: 'promote', status: 'succeeded', promoted_from: firstDeployment.id, commit_sha: firstDeployment.commit_sha });
    // Live as soon as the answer arrives.
    expect(articleOf((await site()).text)).toContain('This is version one.');
    const log = (await cd.api('GET', `/v1/projects/${project.id}/deployments/${res.body.id}/log`)).text;
    expect(log).toContain(`promote: the build of deployment ${firstDeployment.id}`);
    expect(log).not.toContain('build:');
    expect(log).not.toContain('sync:');

    const ended = await cd.api('POST', `/v1/projects/${project.id}/deployments/${firstDeployment.id}/cancel`);
    expect(ended.status).toBe(409);
    expect(ended.body.error).toBe('not_cancelable');
    const preview = (await cd.api('GET', `/v1/projects/${project.id}/deployments?limit=100`)).body.data.find((d: Json) => d.branch);
    expect((await cd.api('POST', `/v1/projects/${project.id}/deployments/${preview.id}/promote`)).body.error).toBe('not_promotable');

    repo.commit({ 'content/guide.mdx': '---\ntitle: Guide\n---\n\nThis is never live.\n' });
    const queued = await cd.api('POST', `/v1/projects/${project.id}/deployments`);
    const canceled = await cd.api('POST', `/v1/projects/${project.id}/deployments/${queued.body.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    expect((await waitForDeployment(cd.api, project.id, queued.body.id)).status).toBe('canceled');
    expect(articleOf((await site()).text)).toContain('This is version one.');
    expect((await cd.api('GET', `/v1/projects/${project.id}`)).body.status).toBe('active');
  });

  it('disconnecting the repository removes the kept trees of its syncs; deleting the project leaves nothing of it', async () => {
    const other = cd.host.repo('acme', 'cd-disconnect');
    other.commit(pages('disconnect one'));
    const created = await connectedProject(cd, other, 'CD 2', 'cd2');
    const git = gitDir(cd.server.dataDir, created.id);
    expect(await keptTreeFiles(git)).not.toEqual([]);

    expect((await cd.api('PATCH', `/v1/projects/${created.id}`, { body: { source_repo: null } })).status).toBe(200);
    expect(await keptTreeFiles(git)).toEqual([]);
    // The content root stays, now the pages API's.
    expect((await cd.api('GET', `/v1/projects/${created.id}/pages/guide`)).body.content).toContain('This is disconnect one.');

    expect((await cd.api('DELETE', `/v1/projects/${created.id}`)).status).toBe(204);
    expect(await readdir(path.dirname(git)).catch((e: NodeJS.ErrnoException) => e.code)).toBe('ENOENT');
  });
});

describe('polling and webhook address rules', () => {
  let cd: DeployingServer;
  beforeAll(async () => {
    cd = await startDeployingServer({ FOLIO_SYNC_POLL_S: '1' });
  });
  afterAll(async () => {
    await cd?.close();
  });

  it('polling deploys a new commit of the connected branch', async () => {
    const repo = cd.host.repo('acme', 'polled');
    repo.commit(pages('polled one'));
    const project = await connectedProject(cd, repo, 'Polled', 'poll');
    const sha = repo.commit({ 'content/guide.mdx': '---\ntitle: Guide\n---\n\nThis is polled two.\n' });
    const polled = await until('a poll deployment', async () =>
      (await cd.api('GET', `/v1/projects/${project.id}/deployments?limit=5`)).body.data.find((d: Json) => d.trigger === 'poll' && d.commit_sha === sha));
    expect((await waitForDeployment(cd.api, project.id, polled.id)).status).toBe('succeeded');
    expect(articleOf((await getWithHost(cd.server.url, '/guide', `${project.slug}.localhost`, {}, SITE)).text)).toContain('This is polled two.');
  });

  it('refuses private, loopback and link-local webhook targets (v4, v6, v4-mapped) unless allowed', async () => {
    const project = (await cd.api('POST', '/v1/projects', { body: { name: 'Hooks', slug: uniqueSlug('hooks') } })).body;
    for (const url of ['http://127.0.0.1:9/x', 'http://[::1]/x', 'http://[::ffff:10.0.0.1]/x', 'http://169.254.169.254/latest', 'ftp://example.com/x']) {
      const res = await cd.api('POST', `/v1/projects/${project.id}/webhooks`, { body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(/^url must/);
    }
    expect((await cd.api('POST', `/v1/projects/${project.id}/webhooks`, { body: { url: 'https://example.com/x', events: ['deployment.done'] } })).status).toBe(400);
    expect((await cd.api('GET', `/v1/projects/${project.id}/webhooks`)).body.data).toEqual([]);
    // The address check itself, as run at each delivery on the resolved address.
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '::', '::1', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:192.168.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:1.1.1.1']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('a host name that resolves to a private address is refused at delivery time', async () => {
    // `localhost` is a name, not an address: it passes registration, and its address is refused at delivery.
    const name = 'localhost';
    const target = await receiver(200);
    try {
      const repo = cd.host.repo('acme', 'rebind');
      const project = (await cd.api('POST', '/v1/projects', { body: { name: 'Rebind', slug: uniqueSlug('rebind') } })).body;
      const hook = await cd.api('POST', `/v1/projects/${project.id}/webhooks`, { body: { url: target.url.replace('127.0.0.1', name) } });
      expect(hook.status).toBe(201);
      repo.commit(pages('rebind'));
      await cd.api('PATCH', `/v1/projects/${project.id}`, { body: { source_repo: repo.slug } });
      const delivery = await until('a refused delivery', async () =>
        (await cd.api('GET', `/v1/projects/${project.id}/webhooks/${hook.body.id}/deliveries`)).body.data.find((d: Json) => d.attempts >= 1));
      expect(delivery.last_error).toMatch(/private address; refused/);
      expect(target.requests).toEqual([]);
    } finally {
      await target.close();
    }
  });
});

describe('pending event deliveries survive a restart', () => {
  it('a delivery still being retried when the server stops is retried by the next server', async () => {
    const series = await serverSeries();
    const target = await receiver(503);
    try {
      const first = await series.start({ FOLIO_WEBHOOK_ALLOW_PRIVATE: '1' });
      // The key printed by the first start serves the servers after it (same data dir).
      const key = first.defaultKey;
      const api = client(first.url, key);
      // An empty project: its deployment fails at once (no_pages), which is an event too.
      const project = (await api('POST', '/v1/projects', { body: { name: 'Restart', slug: uniqueSlug('restart') } })).body;
      const hook = (await api('POST', `/v1/projects/${project.id}/webhooks`, { body: { url: target.url, events: ['deployment.failed'] } })).body;
      const deployment = (await api('POST', `/v1/projects/${project.id}/deployments`)).body;
      expect((await waitForDeployment(api, project.id, deployment.id)).error.code).toBe('no_pages');
      const deliveriesOn = (url: string) => () =>
        client(url, key)('GET', `/v1/projects/${project.id}/webhooks/${hook.id}/deliveries`).then((r) => r.body.data[0]);
      await until('a first failed attempt', async () => ((await deliveriesOn(first.url)())?.attempts >= 1 ? true : undefined));
      expect(await first.stop()).toBe(0);
      const seen = target.requests.length;

      const second = await series.start({ FOLIO_WEBHOOK_ALLOW_PRIVATE: '1' });
      const again = await until('a retry after the restart', async () => {
        const delivery = await deliveriesOn(second.url)();
        return target.requests.length > seen && delivery?.attempts > seen ? delivery : undefined;
      }, 30);
      expect(again).toMatchObject({ status: 'pending', response_code: 503, event: 'deployment.failed' });
      expect(JSON.parse(target.requests.at(-1)!.body).data.deployment.id).toBe(deployment.id);
    } finally {
      await series.close();
      await target.close();
    }
  });
});

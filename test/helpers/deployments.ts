// Helpers of the deployment and hosting tests: servers that sync local repositories, waiting for
// a deployment to end, reading a site page.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { repoHost, type RepoHost } from './git-repos.ts';
import { client, removeDir, startServer, tempDataDir, type Json, type TestServer } from './server.ts';

type Api = ReturnType<typeof client>;

export interface DeployingServer {
  server: TestServer;
  /** Where the test's repositories live; the server fetches from it over file://. */
  host: RepoHost;
  /** A client with the server's default (all-scopes) key. */
  api: Api;
  /** Stops the server and removes its data dir and the repositories. */
  close(): Promise<void>;
}

/**
 * A repository host and a data dir that outlive the servers a test starts on them one after
 * another (restarts, changed settings). Each server syncs from the host over file://.
 */
export interface ServerSeries {
  host: RepoHost;
  start(env?: Record<string, string>): Promise<TestServer>;
  /** Stops the last server started and removes the data dir and the repositories. */
  close(): Promise<void>;
}

export async function serverSeries(): Promise<ServerSeries> {
  const host = repoHost();
  const dataDir = await tempDataDir();
  let last: TestServer | undefined;
  return {
    host,
    async start(env = {}) {
      last = await startServer({ dataDir, env: { FOLIO_GIT_URL: host.gitUrl, FOLIO_GIT_PROTOCOLS: 'file', ...env } });
      return last;
    },
    async close() {
      await last?.stop();
      await removeDir(dataDir);
      host.remove();
    },
  };
}

/** A real server that syncs repositories made by the test (FOLIO_GIT_URL at a local repo host). */
export async function startDeployingServer(env: Record<string, string> = {}): Promise<DeployingServer> {
  const series = await serverSeries();
  const server = await series.start(env);
  return { server, host: series.host, api: client(server.url, server.defaultKey), close: series.close };
}

const FINAL = new Set(['succeeded', 'failed', 'canceled']);

/** Polls a deployment until it has ended (2 minutes at most); returns it. */
export async function waitForDeployment(api: Api, projectId: string, deploymentId: string): Promise<Json> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await api('GET', `/v1/projects/${projectId}/deployments/${deploymentId}`);
    expect(res.status).toBe(200);
    if (FINAL.has(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`deployment ${deploymentId} still ${res.body.status} after 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The newest deployment of a project, once one exists. */
export async function latestDeployment(api: Api, projectId: string): Promise<Json> {
  const res = await api('GET', `/v1/projects/${projectId}/deployments?limit=1`);
  expect(res.status).toBe(200);
  return res.body.data[0];
}

/** Triggers a deployment and waits for its end. */
export async function deploy(api: Api, projectId: string): Promise<Json> {
  const res = await api('POST', `/v1/projects/${projectId}/deployments`);
  expect(res.status).toBe(202);
  return waitForDeployment(api, projectId, res.body.id);
}

/** The `<article>` of a page: the page's own content. */
export function articleOf(html: string): string {
  const start = html.indexOf('<article');
  return start < 0 ? '' : html.slice(start, html.indexOf('</article>', start));
}

/** Triggers a deployment with `body` (`full_build`), waits for it to succeed; returns it and its log. */
export async function deployWithLog(api: Api, projectId: string, body: unknown = {}): Promise<{ deployment: Json; log: string }> {
  const res = await api('POST', `/v1/projects/${projectId}/deployments`, { body });
  expect(res.status).toBe(202);
  const deployment = await waitForDeployment(api, projectId, res.body.id);
  expect(deployment.status).toBe('succeeded');
  return { deployment, log: (await api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`)).text };
}

/** Every file of a build's folder, by path, with a hash of its bytes (fast and full builds compared). */
export async function fileHashes(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, abs), createHash('sha256').update(await readFile(abs)).digest('hex'));
  }
  return files;
}

/** Polls `probe` every 10 ms until it holds (a minute at most). */
export async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`still not: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

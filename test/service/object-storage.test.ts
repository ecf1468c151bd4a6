// Object storage (FOLIO_STORAGE_URL, docs/decisions.md#object-storage) with real parts: a real
// S3-compatible server (test/helpers/s3.ts) and real PostgreSQL. Node A builds; node B shares only
// the database and the bucket (its own data dir) and serves what A built, hears of every change of
// the live build (deploy, promote) through LISTEN/NOTIFY, keeps its copies of files within
// FOLIO_CACHE_MB, and reads A's deployment logs. Each deployment's content root (its snapshot) is
// kept beside its build; kept-build pruning removes both, and a bad FOLIO_STORAGE_URL stops the
// server with a message naming it.
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitForDeployment } from '../helpers/deployments.ts';
import { repoHost, type RepoHost, type TestRepo } from '../helpers/git-repos.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { createTestBucket, S3_CREDENTIALS } from '../helpers/s3.ts';
import { client, getWithHost, removeDir, startServer, tempDataDir, uniqueSlug, type Json, type TestServer } from '../helpers/server.ts';

const SITE = 'a site host, outside the API contract';
/** Three files each larger than what is kept in memory (256 KiB), together over 1 MiB. */
const big = (n: number) => `big file ${n}\n${'0123456789abcdef'.repeat(24_000)}\n`;
const files = (version: string) => ({
  'docs.json': JSON.stringify({ name: 'Stored Docs', navigation: [{ group: 'Guide', pages: ['index', 'guide'] }] }),
  'content/index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
  'content/guide.mdx': `---\ntitle: Guide\n---\n\nThis is ${version}.\n`,
  'public/big-1.txt': big(1),
  'public/big-2.txt': big(2),
  'public/big-3.txt': big(3),
});

/** Polls `check` until it holds (20 s at most): nodes learn of changes by notification, not by waiting. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

describe('two nodes sharing PostgreSQL and object storage', () => {
  const dirs: string[] = [];
  let host: RepoHost;
  let repo: TestRepo;
  let a: TestServer;
  let b: TestServer;
  let apiA: ReturnType<typeof client>;
  let apiB: ReturnType<typeof client>;
  let project: Json;
  let first: Json;
  let bucket: string;
  const s3 = () => new S3Client({
    endpoint: inject('s3Endpoint'),
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
  });
  const page = (server: TestServer, urlPath: string) => getWithHost(server.url, urlPath, `${project.slug}.localhost`, {}, SITE);

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase(inject('postgresUrl'));
    bucket = await createTestBucket(inject('s3Endpoint'));
    host = repoHost();
    repo = host.repo('acme', 'stored-docs');
    repo.commit(files('version one'));
    const env = {
      ...S3_CREDENTIALS,
      FOLIO_DATABASE_URL: databaseUrl,
      FOLIO_STORAGE_URL: `s3://${bucket}/sites?endpoint=${inject('s3Endpoint')}`,
      FOLIO_GIT_URL: host.gitUrl,
      FOLIO_GIT_PROTOCOLS: 'file',
      FOLIO_KEEP_BUILDS: '2',
    };
    const [dirA, dirB] = [await tempDataDir(), await tempDataDir()];
    dirs.push(dirA, dirB);
    a = await startServer({ dataDir: dirA, env });
    b = await startServer({ dataDir: dirB, env: { ...env, FOLIO_CACHE_MB: '1' } });
    apiA = client(a.url, a.defaultKey);
    apiB = client(b.url, a.defaultKey);
    const created = await apiA('POST', '/v1/projects', { body: { name: 'Stored', slug: uniqueSlug('stored'), source_repo: repo.slug } });
    expect(created.status).toBe(201);
    project = created.body;
    const queued = (await apiA('GET', `/v1/projects/${project.id}/deployments?limit=1`)).body.data[0];
    first = await waitForDeployment(apiA, project.id, queued.id);
    expect(first.status).toBe('succeeded');
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    for (const dir of dirs) await removeDir(dir);
    host?.remove();
  });

  it('serves on node B the site node A built, from object storage; node A keeps no build on its disk', async () => {
    const guide = await page(b, '/guide');
    expect(guide.status).toBe(200);
    expect(guide.text).toContain('This is version one.');
    expect(guide.headers['content-type']).toBe('text/html; charset=utf-8');
    // Content-hashed assets keep their year-long caching.
    const asset = /\/_astro\/[^"']+\.css/.exec(guide.text)?.[0];
    expect(asset).toBeDefined();
    const css = await page(b, asset!);
    expect(css.status).toBe(200);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // An ETag from the file's content: a revalidation is answered 304.
    const again = await getWithHost(b.url, '/guide', `${project.slug}.localhost`, { 'if-none-match': guide.headers.etag! }, SITE);
    expect(again.status).toBe(304);
    // The copies compressed when node A published went up with the build: node B sends them as they are.
    const compressed = await getWithHost(b.url, '/guide', `${project.slug}.localhost`, { 'accept-encoding': 'br' }, SITE);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toBe('accept, accept-encoding'); // a page's address: its Markdown answers it too
    expect(compressed.headers.etag).not.toBe(guide.headers.etag);
    expect(Number(compressed.headers['content-length'])).toBeLessThan(Number(guide.headers['content-length']) / 2);
    expect((await page(b, '/_folio/compressed/guide/index.html.br')).status).toBe(404);
    // Path checks stay the only way from a request to a key.
    expect((await page(b, '/..%2F..%2Fmanifest.json')).status).toBe(400);
    expect((await page(b, '/missing-page')).status).toBe(404);
    expect(await readdir(path.join(a.dataDir, 'projects', project.id, 'builds')).catch(() => [])).toEqual([]);
  });

  it('shows node A\'s deployment log on node B', async () => {
    const log = await apiB('GET', `/v1/projects/${project.id}/deployments/${first.id}/log`);
    expect(log.status).toBe(200);
    expect(log.text).toContain('publish: live at');
  });

  it('keeps node B\'s copies within FOLIO_CACHE_MB and still serves a file whose copy was removed', async () => {
    for (const n of [1, 2, 3, 1]) {
      const res = await page(b, `/big-${n}.txt`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(big(n));
    }
    expect(await dirBytes(path.join(b.dataDir, 'object-cache'))).toBeLessThanOrEqual(1024 * 1024);
  });

  it('sends a byte range of a file kept in object storage', async () => {
    const text = big(2);
    const part = await getWithHost(b.url, '/big-2.txt', `${project.slug}.localhost`, { range: 'bytes=200000-200099' }, SITE);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 200000-200099/${text.length}`);
    expect(part.text).toBe(text.slice(200000, 200100));
  });

  it('switches what node B serves when node A deploys and promotes, and prunes builds beyond FOLIO_KEEP_BUILDS from the bucket', async () => {
    repo.commit(files('version two'));
    const triggered = await apiA('POST', `/v1/projects/${project.id}/deployments`);
    expect(triggered.status).toBe(202);
    const second = await waitForDeployment(apiA, project.id, triggered.body.id);
    expect(second.status).toBe('succeeded');
    await eventually(async () => (await page(b, '/guide')).text.includes('This is version two.'), 'node B serves version two');

    const promoted = await apiB('POST', `/v1/projects/${project.id}/deployments/${first.id}/promote`);
    expect(promoted.status).toBe(200);
    await eventually(async () => (await page(b, '/guide')).text.includes('This is version one.'), 'node B serves version one again');
    await eventually(async () => (await page(a, '/guide')).text.includes('This is version one.'), 'node A serves version one again');

    // A third build: kept are the live one and the newest two successful ones (the promote counts
    // as the first build), so the second build's objects go and it can no longer be promoted.
    repo.commit(files('version three'));
    const third = await waitForDeployment(apiA, project.id, (await apiA('POST', `/v1/projects/${project.id}/deployments`)).body.id);
    expect(third.status).toBe('succeeded');
    await eventually(async () => (await page(b, '/guide')).text.includes('This is version three.'), 'node B serves version three');
    const refused = await apiA('POST', `/v1/projects/${project.id}/deployments/${second.id}/promote`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('not_promotable');
    // The builds and the snapshots of the content roots they were built from: the second's went.
    const client = s3();
    try {
      for (const kind of ['builds', 'snapshots']) {
        const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `sites/projects/${project.id}/${kind}/`, Delimiter: '/' }));
        expect((listed.CommonPrefixes ?? []).map((p) => p.Prefix!.split('/').at(-2)).sort()).toEqual([first.id, third.id].sort());
      }
      const snapshot = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `sites/projects/${project.id}/snapshots/${third.id}/files/content/guide.mdx` }));
      expect(await snapshot.Body!.transformToString()).toContain('This is version three.');
    } finally {
      client.destroy();
    }
  });
});

describe('FOLIO_STORAGE_URL at start', () => {
  it('stops the server with a message naming the variable and how to fix it', async () => {
    const dir = await tempDataDir();
    try {
      const databaseUrl = await createTestDatabase(inject('postgresUrl'));
      const start = (env: Record<string, string>) => startServer({ dataDir: dir, env: { ...S3_CREDENTIALS, ...env } }).then(
        async (server) => {
          await server.stop();
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(await start({ FOLIO_DATABASE_URL: databaseUrl, FOLIO_STORAGE_URL: 's3://Not_A_Bucket/x' })).toContain('Invalid FOLIO_STORAGE_URL="s3://Not_A_Bucket/x": bucket "Not_A_Bucket" is not a valid bucket name');
      expect(await start({ FOLIO_DATABASE_URL: databaseUrl, FOLIO_STORAGE_URL: 's3://folio-sites?pathstyle=1' })).toContain('unknown setting "pathstyle"');
      expect(await start({ FOLIO_STORAGE_URL: 's3://folio-sites' })).toContain('FOLIO_STORAGE_URL needs FOLIO_DATABASE_URL');
      expect(await start({ FOLIO_DATABASE_URL: databaseUrl, FOLIO_STORAGE_URL: `s3://no-such-bucket-here?endpoint=${inject('s3Endpoint')}` })).toContain('NoSuchBucket');
    } finally {
      await removeDir(dir);
    }
  });
});

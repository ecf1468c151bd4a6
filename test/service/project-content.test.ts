// The content root of API-managed projects shared through PostgreSQL (src/service/postgres/content.ts):
// two nodes, each with its own data dir and connection pool, on one real database.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeFileAtomic } from '../../src/service/atomic-write.ts';
import { createPostgresContent } from '../../src/service/postgres/content.ts';
import { openPostgresStore, type PostgresStore } from '../../src/service/store/postgres/index.ts';
import type { ProjectContent } from '../../src/service/project-content.ts';
import { contentRootDir } from '../../src/service/project-files.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

interface Node {
  store: PostgresStore;
  dataDir: string;
  content: ProjectContent;
  root(projectId: string): string;
}

const nodes: Node[] = [];
let a: Node;
let b: Node;

beforeAll(async () => {
  const url = await createTestDatabase(inject('postgresUrl'));
  for (let i = 0; i < 2; i++) {
    const store = await openPostgresStore(url);
    const dataDir = await tempDataDir();
    nodes.push({ store, dataDir, content: createPostgresContent(store.pool, dataDir), root: (id) => contentRootDir(dataDir, id) });
  }
  [a, b] = nodes as [Node, Node];
  await a.store.createOrg({ id: 'org-content', name: 'content', plan: 'pro', created_at: new Date().toISOString() });
});

afterAll(async () => {
  for (const node of nodes) {
    await node.store.close();
    await removeDir(node.dataDir);
  }
});

async function newProject(): Promise<string> {
  const id = crypto.randomUUID();
  await a.store.createProject({ id, org_id: 'org-content', name: 'Content', slug: `content-${id.slice(0, 8)}`, status: 'pending', created_at: new Date().toISOString() });
  return id;
}

/** A change on `node` that writes `files` (relative to the content root). */
function write(node: Node, projectId: string, files: Record<string, string>): Promise<void> {
  return node.content.change(projectId, async (touched) => {
    for (const [rel, text] of Object.entries(files)) {
      const abs = path.join(node.root(projectId), rel);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFileAtomic(abs, text);
      touched(abs);
    }
  });
}

const text = (node: Node, projectId: string, rel: string) => readFile(path.join(node.root(projectId), rel), 'utf8');

describe('content written through one node', () => {
  it('is read on another after a pull, changes and removals included, with empty folders gone', async () => {
    const id = await newProject();
    await write(a, id, { 'content/index.mdx': 'Home\n', 'content/guides/setup.mdx': 'Setup\n', 'docs.json': '{}\n' });
    await b.content.pull(id);
    expect(await text(b, id, 'content/guides/setup.mdx')).toBe('Setup\n');
    expect(await text(b, id, 'docs.json')).toBe('{}\n');

    await b.content.change(id, async (touched) => {
      const abs = path.join(b.root(id), 'content/guides/setup.mdx');
      await rm(abs);
      touched(abs);
    });
    await write(b, id, { 'content/index.mdx': 'Home, edited\n' });
    await a.content.pull(id);
    expect(await text(a, id, 'content/index.mdx')).toBe('Home, edited\n');
    expect(existsSync(path.join(a.root(id), 'content/guides'))).toBe(false);
  });

  it('serializes changes of one project across nodes: concurrent writes all land on both', async () => {
    const id = await newProject();
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(i % 2 ? a : b, id, { [`content/page-${i}.mdx`]: `Page ${i}\n` })));
    for (const node of [a, b]) {
      await node.content.pull(id);
      for (let i = 0; i < 10; i++) expect(await text(node, id, `content/page-${i}.mdx`)).toBe(`Page ${i}\n`);
    }
  });

  it('stores the files a copy had before its first change (written without PostgreSQL), so other nodes get them', async () => {
    const id = await newProject();
    await mkdir(path.join(a.root(id), 'content'), { recursive: true });
    await writeFile(path.join(a.root(id), 'content/older.mdx'), 'From before\n');
    await b.content.pull(id); // nothing stored yet: nothing to fetch, nothing removed
    await write(a, id, { 'content/new.mdx': 'New\n' });
    await b.content.pull(id);
    expect(await text(b, id, 'content/older.mdx')).toBe('From before\n');
    expect(await text(b, id, 'content/new.mdx')).toBe('New\n');
  });

  it('forgets on the next pull what a failed change left in the copy, and stores nothing of it', async () => {
    const id = await newProject();
    await write(a, id, { 'content/index.mdx': 'Home\n' });
    await expect(a.content.change(id, async (touched) => {
      const abs = path.join(a.root(id), 'content/half.mdx');
      await writeFileAtomic(abs, 'Half\n');
      touched(abs);
      throw new Error('refused');
    })).rejects.toThrow('refused');
    await b.content.pull(id);
    expect(existsSync(path.join(b.root(id), 'content/half.mdx'))).toBe(false);
    await write(b, id, { 'content/other.mdx': 'Other\n' });
    await a.content.pull(id);
    expect(existsSync(path.join(a.root(id), 'content/half.mdx'))).toBe(false);
    expect(await text(a, id, 'content/index.mdx')).toBe('Home\n');
  });

  it('goes with its project: a deleted project leaves no file rows, and a change of it answers not_found', async () => {
    const id = await newProject();
    await write(a, id, { 'content/index.mdx': 'Home\n' });
    await a.store.deleteProject(id);
    const { rows } = await a.store.pool.query('SELECT count(*)::int AS n FROM project_files WHERE project_id = $1', [id]);
    expect(rows[0].n).toBe(0);
    await expect(write(b, id, { 'content/index.mdx': 'Again\n' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('leaves out of the database a file whose path it cannot hold (synced from a repository), which stays on its node; a change of it is refused', async () => {
    const id = await newProject();
    const odd = path.join(a.root(id), 'content/odd\\name.mdx');
    await mkdir(path.dirname(odd), { recursive: true });
    await writeFile(odd, 'Odd\n');
    await writeFile(path.join(a.root(id), 'content/kept.mdx'), 'Kept\n');
    // The first change stores the copy's files: all but the odd one, instead of failing on the CHECK.
    await write(a, id, { 'content/new.mdx': 'New\n' });
    await b.content.pull(id);
    expect(await text(b, id, 'content/kept.mdx')).toBe('Kept\n');
    expect(await text(b, id, 'content/new.mdx')).toBe('New\n');
    expect(existsSync(path.join(b.root(id), 'content/odd\\name.mdx'))).toBe(false);
    await expect(a.content.change(id, async (touched) => touched(odd))).rejects.toMatchObject({ code: 'invalid_request' });
    // A pull that rereads the disk (the failed change dropped the node's record) leaves it alone.
    await a.content.pull(id);
    expect(await readFile(odd, 'utf8')).toBe('Odd\n');
  });

  it('forgets the stored files on reset (a repository connected): the next change stores the copy as it is then, and every node gets that', async () => {
    const id = await newProject();
    await write(a, id, { 'content/before.mdx': 'Written before the connection\n' });
    await b.content.pull(id);
    expect(await text(b, id, 'content/before.mdx')).toBe('Written before the connection\n');
    await a.content.reset(id);
    // A sync replaces the root; pulls leave a root without stored files alone.
    await rm(a.root(id), { recursive: true });
    await mkdir(path.join(a.root(id), 'content'), { recursive: true });
    await writeFile(path.join(a.root(id), 'content/synced.mdx'), 'From the repository\n');
    await a.content.pull(id);
    expect(await text(a, id, 'content/synced.mdx')).toBe('From the repository\n');
    // Disconnected: the first change stores the synced files, not those written before.
    await write(a, id, { 'content/after.mdx': 'After\n' });
    for (const node of [b, a]) {
      await node.content.pull(id);
      expect(await text(node, id, 'content/synced.mdx')).toBe('From the repository\n');
      expect(await text(node, id, 'content/after.mdx')).toBe('After\n');
      expect(existsSync(path.join(node.root(id), 'content/before.mdx'))).toBe(false);
    }
  });

  it('refuses a stored path that could leave the content root (constraint)', async () => {
    const id = await newProject();
    await write(a, id, { 'content/index.mdx': 'Home\n' });
    for (const bad of ['../escape.mdx', '/abs.mdx', 'content//x.mdx', 'content/./x.mdx', 'a\\b.mdx']) {
      await expect(a.store.pool.query(
        "INSERT INTO project_files (project_id, path, content, sha256, updated_at) VALUES ($1, $2, '', repeat('0', 64), now())", [id, bad],
      )).rejects.toMatchObject({ code: '23514' });
    }
  });
});

// Sync of a repository into a content root (src/service/deployments/sync.ts) against real local
// repositories: default branch, reuse of the clone, refusals that leave the content root as it was.
import { appendFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptTree, SYNC_LIMITS, SyncError, syncRepository, type SyncInput } from '../../src/service/deployments/sync.ts';
import { repoHost, type RepoHost } from '../helpers/git-repos.ts';

let host: RepoHost;
let work: string;
let n = 0;

beforeAll(() => {
  host = repoHost();
  work = mkdtempSync(path.join(os.tmpdir(), 'folio-sync-'));
});
afterAll(() => {
  host.remove();
  rmSync(work, { recursive: true, force: true });
});

/** Sync input for a repository of the host, into a fresh project dir. */
function input(name: string, overrides: Partial<SyncInput> = {}): SyncInput & { lines: string[] } {
  const dir = path.join(work, `p${++n}`);
  mkdirSync(dir);
  const lines: string[] = [];
  return {
    url: host.gitUrl.replace('{owner}', 'acme').replace('{name}', name),
    repository: `acme/${name}`,
    gitDir: path.join(dir, 'git'),
    contentRoot: path.join(dir, 'root'),
    protocols: ['file'],
    timeoutMs: 60_000,
    log: (line) => lines.push(line),
    lines,
    ...overrides,
  };
}

describe('syncRepository', () => {
  it('syncs the default branch when none is given, and fetches into the same clone next time', async () => {
    const repo = host.repo('acme', 'trunk-repo', 'trunk');
    const first = repo.commit({ 'content/index.mdx': '# One\n', 'docs.json': '{}' });
    const sync = input('trunk-repo');
    expect(await syncRepository(sync)).toEqual({ branch: 'trunk', commitSha: first, fileCount: 2 });
    expect(readFileSync(path.join(sync.contentRoot, 'content/index.mdx'), 'utf8')).toBe('# One\n');

    const second = repo.commit({ 'content/index.mdx': null, 'content/two.mdx': '# Two\n' });
    const again = await syncRepository({ ...sync, branch: 'trunk' });
    expect(again.commitSha).toBe(second);
    // The root is the new tree exactly: deleted files are gone.
    expect(existsSync(path.join(sync.contentRoot, 'content/index.mdx'))).toBe(false);
    expect(readFileSync(path.join(sync.contentRoot, 'content/two.mdx'), 'utf8')).toBe('# Two\n');
    expect(existsSync(path.join(sync.gitDir, 'HEAD'))).toBe(true);
  });

  it('writes only the files a commit changed: the others keep their dates, and a file taken from the old root keeps its text', async () => {
    const repo = host.repo('acme', 'kept-repo');
    repo.commit({ 'content/index.mdx': '# One\n', 'content/other.mdx': '# Other\n', 'docs.json': '{}' });
    const sync = input('kept-repo');
    await syncRepository(sync);
    const other = path.join(sync.contentRoot, 'content/other.mdx');
    const before = statSync(other);
    // A deployment's snapshot hard-links the root's files (runner.ts): what it took must not change.
    const snapshot = path.join(work, `snapshot-${n}.mdx`);
    linkSync(path.join(sync.contentRoot, 'content/index.mdx'), snapshot);

    repo.commit({ 'content/index.mdx': '# Two\n', 'content/new/page.mdx': '# New\n' });
    await syncRepository(sync);
    expect(readFileSync(path.join(sync.contentRoot, 'content/index.mdx'), 'utf8')).toBe('# Two\n');
    expect(readFileSync(path.join(sync.contentRoot, 'content/new/page.mdx'), 'utf8')).toBe('# New\n');
    // The pages API's updated_at is the file's date: a page the push did not touch keeps it.
    expect(statSync(other).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(other).ino).toBe(before.ino);
    expect(readFileSync(snapshot, 'utf8')).toBe('# One\n');

    repo.commit({ 'content/new/page.mdx': null });
    await syncRepository(sync);
    expect(existsSync(path.join(sync.contentRoot, 'content/new'))).toBe(false);
    expect(readFileSync(path.join(sync.contentRoot, 'content/index.mdx'), 'utf8')).toBe('# Two\n');
  });

  it('writes every file again after a sync interrupted half-way (its kept tree without its index)', async () => {
    const repo = host.repo('acme', 'damaged-repo');
    repo.commit({ 'content/index.mdx': '# One\n', 'content/other.mdx': '# Other\n' });
    const sync = input('damaged-repo');
    await syncRepository(sync);
    const { tree, index } = keptTree(sync.gitDir, sync.contentRoot);
    // What a sync killed while writing leaves: the index set aside, files half-written or new.
    renameSync(index, `${index}.busy`);
    appendFileSync(path.join(tree, 'content/other.mdx'), 'half-written');
    writeFileSync(path.join(tree, 'content/stray.mdx'), '# Stray\n');

    repo.commit({ 'content/index.mdx': '# Two\n' });
    await syncRepository(sync);
    expect(readFileSync(path.join(sync.contentRoot, 'content/index.mdx'), 'utf8')).toBe('# Two\n');
    expect(readFileSync(path.join(sync.contentRoot, 'content/other.mdx'), 'utf8')).toBe('# Other\n');
    expect(existsSync(path.join(sync.contentRoot, 'content/stray.mdx'))).toBe(false);
  });

  it('refuses too many files, a too large file and a missing branch, leaving the content root as it was', async () => {
    const repo = host.repo('acme', 'big');
    repo.commit({ 'content/index.mdx': '# Big\n', 'content/a.mdx': 'a', 'content/b.mdx': 'b'.repeat(5000) });
    const sync = input('big');
    mkdirSync(path.join(sync.contentRoot, 'content'), { recursive: true });
    writeFileSync(path.join(sync.contentRoot, 'content/old.mdx'), '# Old\n');
    const cases: [Partial<SyncInput>, RegExp][] = [
      [{ limits: { ...SYNC_LIMITS, maxFiles: 2 } }, /more than 2 files/],
      [{ limits: { ...SYNC_LIMITS, maxFileBytes: 1000 } }, /content\/b\.mdx is 5 KB, over the limit of 1 KB per file/],
      [{ limits: { ...SYNC_LIMITS, maxTotalBytes: 4000 } }, /more than 4 KB/],
      [{ branch: 'no-such-branch' }, /no-such-branch/],
    ];
    for (const [overrides, message] of cases) {
      const error = await syncRepository({ ...sync, ...overrides }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SyncError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(host.base);
      expect(readFileSync(path.join(sync.contentRoot, 'content/old.mdx'), 'utf8')).toBe('# Old\n');
    }
  });

  it('uses only the allowed protocols', async () => {
    host.repo('acme', 'blocked').commit({ 'content/index.mdx': '# Hi\n' });
    const error = await syncRepository(input('blocked', { protocols: ['https'] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncError);
    expect((error as Error).message).toMatch(/transport 'file' not allowed/);
  });
});

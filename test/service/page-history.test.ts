// What a repository project's pages show from git (src/service/deployments/page-history.ts), on
// real local repositories synced the way a deployment syncs them: each page's last-commit date from
// one `git log`, none for a page unchanged within the fetched history, and the "Edit this page"
// address for repositories on GitHub and GitLab only.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editBaseUrl, lastUpdatedDates } from '../../src/service/deployments/page-history.ts';
import { HISTORY_DEPTH, syncRepository } from '../../src/service/deployments/sync.ts';
import { repoHost, type RepoHost } from '../helpers/git-repos.ts';

let host: RepoHost;
let work: string;

beforeAll(() => {
  host = repoHost();
  work = mkdtempSync(path.join(os.tmpdir(), 'folio-history-'));
});
afterAll(() => {
  host.remove();
  rmSync(work, { recursive: true, force: true });
});

const GIT = { protocols: ['file'], timeoutMs: 60_000 };

async function sync(name: string): Promise<string> {
  const gitDir = path.join(work, name, 'git');
  await syncRepository({ url: host.gitUrl.replace('{owner}', 'acme').replace('{name}', name), repository: `acme/${name}`, gitDir, contentRoot: path.join(work, name, 'root'), ...GIT, log: () => undefined });
  return gitDir;
}

describe('lastUpdatedDates', () => {
  it('gives each page the date of the last commit that changed it, and nothing outside content/', async () => {
    const repo = host.repo('acme', 'dated');
    repo.commit({ 'content/index.mdx': '# Home\n', 'content/guides/install.md': '# Install\n', 'docs.json': '{}' }, 'main', '2025-01-10T09:00:00Z');
    repo.commit({ 'content/guides/install.md': '# Install v2\n', 'docs.json': '{"name":"x"}' }, 'main', '2025-03-05T12:30:00Z');
    repo.commit({ 'content/new page.mdx': '# New\n' }, 'main', '2025-04-01T08:00:00Z');
    const dates = await lastUpdatedDates(await sync('dated'), GIT);
    expect(Object.keys(dates).sort()).toEqual(['content/guides/install.md', 'content/index.mdx', 'content/new page.mdx']);
    expect(Date.parse(dates['content/index.mdx']!)).toBe(Date.parse('2025-01-10T09:00:00Z'));
    expect(Date.parse(dates['content/guides/install.md']!)).toBe(Date.parse('2025-03-05T12:30:00Z'));
    expect(Date.parse(dates['content/new page.mdx']!)).toBe(Date.parse('2025-04-01T08:00:00Z'));
  });

  it(`leaves out a page not changed within the last ${HISTORY_DEPTH} commits (the sync's depth) rather than guessing`, async () => {
    const repo = host.repo('acme', 'deep');
    repo.commit({ 'content/old.mdx': '# Old\n' }, 'main', '2024-01-01T00:00:00Z');
    for (let i = 0; i < HISTORY_DEPTH; i++) repo.commit({ 'content/busy.mdx': `# Busy ${i}\n` }, 'main', `2025-02-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`);
    const dates = await lastUpdatedDates(await sync('deep'), GIT);
    expect(dates['content/old.mdx']).toBeUndefined();
    expect(Date.parse(dates['content/busy.mdx']!)).toBe(Date.parse(`2025-02-${String(1 + ((HISTORY_DEPTH - 1) % 28)).padStart(2, '0')}T10:00:00Z`));
  });
});

describe('editBaseUrl', () => {
  it('links GitHub and GitLab repositories to their editors on the synced branch', () => {
    expect(editBaseUrl('https://github.com/acme/docs.git', 'acme/docs', 'main')).toBe('https://github.com/acme/docs/edit/main/');
    expect(editBaseUrl('https://gitlab.com/acme/docs.git', 'acme/docs', 'release/v2')).toBe('https://gitlab.com/acme/docs/-/edit/release/v2/');
  });

  it('gives no link for other hosts or addresses that are not https', () => {
    expect(editBaseUrl('https://git.example.com/acme/docs.git', 'acme/docs', 'main')).toBeUndefined();
    expect(editBaseUrl('file:///srv/git/acme/docs.git', 'acme/docs', 'main')).toBeUndefined();
    expect(editBaseUrl('http://github.com/acme/docs.git', 'acme/docs', 'main')).toBeUndefined();
  });
});

// What a repository project's site shows from its repository: an "Edit this page" link when the
// repository is hosted on GitHub or GitLab, and each page's last-updated date from git. The dates
// come from one `git log` per deployment over the synced history (docs/decisions.md#docs-site-theme).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { git, type GitOptions } from '../git.ts';
import { SYNC_REF } from './sync.ts';

/** The edit address of the content root's files, ending in "/" (a page's path relative to the root follows). */
export function editBaseUrl(repoUrl: string, repository: string, branch: string): string | undefined {
  const url = URL.canParse(repoUrl) ? new URL(repoUrl) : undefined;
  if (!url || url.protocol !== 'https:') return undefined;
  const [owner, name] = repository.split('/').map(encodeURIComponent);
  const ref = branch.split('/').map(encodeURIComponent).join('/');
  if (url.hostname === 'github.com') return `https://github.com/${owner}/${name}/edit/${ref}/`;
  if (url.hostname === 'gitlab.com') return `https://gitlab.com/${owner}/${name}/-/edit/${ref}/`;
  return undefined;
}

/**
 * The date of the last commit that changed each file under `content/`, by path relative to the
 * root, newest first, from one `git log` over the synced history. The sync fetches a bounded depth
 * (sync.ts), so a file not changed within it has no known date and is left out: the oldest fetched
 * commits are shallow boundaries that list every file as added.
 */
export async function lastUpdatedDates(gitDir: string, options: GitOptions): Promise<Record<string, string>> {
  const shallow = new Set((await readFile(path.join(gitDir, 'shallow'), 'utf8').catch(() => '')).split('\n').filter(Boolean));
  const out = await git(gitDir, ['log', '--format=%x1e%H %cI', '--name-only', '--no-renames', '-z', '--end-of-options', SYNC_REF, '--', 'content/'], options);
  const dates: Record<string, string> = {};
  for (const record of out.split('\x1e')) {
    const [head = '', ...files] = record.split('\0');
    const [sha = '', date = ''] = head.trim().split(' ');
    if (!sha || shallow.has(sha)) continue;
    for (const raw of files) {
      const file = raw.replace(/^\n/, '');
      if (file && !(file in dates)) dates[file] = date;
    }
  }
  return dates;
}

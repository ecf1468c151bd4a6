// Real local git repositories for deployment tests: bare repos at `{base}/{owner}/{name}.git`,
// served to Folio over file:// (FOLIO_GIT_URL=file://{base}/{owner}/{name}.git), each with a work
// tree the test commits to.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

const run = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();
const runDated = (cwd: string, date: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, encoding: 'utf8' }).trim();

export interface TestRepo {
  /** `owner/name`, for source_repo. */
  slug: string;
  /** Writes files (null deletes one; a `{ symlink }` makes a link) on `branch`, commits (dated `date`, an ISO date, if given) and pushes; returns the sha. */
  commit(files: Record<string, string | null | { symlink: string }>, branch?: string, date?: string): string;
  /** Deletes a branch of the remote (as a git host does when a pull request's branch goes). */
  deleteBranch(branch: string): void;
}

export interface RepoHost {
  base: string;
  /** FOLIO_GIT_URL for servers of this test. */
  gitUrl: string;
  repo(owner: string, name: string, defaultBranch?: string): TestRepo;
  remove(): void;
}

export function repoHost(): RepoHost {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-git-'));
  return {
    base,
    gitUrl: `file://${base}/{owner}/{name}.git`,
    repo(owner, name, defaultBranch = 'main') {
      const bare = path.join(base, owner, `${name}.git`);
      const work = path.join(base, 'work', `${owner}--${name}`);
      fs.mkdirSync(bare, { recursive: true });
      fs.mkdirSync(work, { recursive: true });
      run(bare, 'init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`);
      run(work, 'init', '--quiet', `--initial-branch=${defaultBranch}`);
      run(work, 'remote', 'add', 'origin', bare);
      let first = true;
      return {
        slug: `${owner}/${name}`,
        commit(files, branch = defaultBranch, date) {
          if (!first) {
            const exists = run(work, 'branch', '--list', branch) !== '';
            run(work, 'checkout', '--quiet', ...(exists ? [branch] : ['-b', branch]));
          }
          first = false;
          for (const [rel, content] of Object.entries(files)) {
            const abs = path.join(work, rel);
            fs.rmSync(abs, { force: true });
            if (content === null) continue;
            fs.mkdirSync(path.dirname(abs), { recursive: true });
            if (typeof content === 'string') fs.writeFileSync(abs, content);
            else fs.symlinkSync(content.symlink, abs);
          }
          run(work, 'add', '-A');
          if (date) runDated(work, date, 'commit', '--quiet', '--allow-empty', '-m', `commit on ${branch}`);
          else run(work, 'commit', '--quiet', '--allow-empty', '-m', `commit on ${branch}`);
          run(work, 'push', '--quiet', 'origin', branch);
          return run(work, 'rev-parse', 'HEAD');
        },
        deleteBranch(branch) {
          run(work, 'push', '--quiet', 'origin', '--delete', branch);
        },
      };
    },
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

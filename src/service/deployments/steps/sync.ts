// The first step of a deployment: a repository project's content root is brought to the head of
// its branch (sync.ts), and what its pages show from git is read. A project without a repository
// has nothing to sync: its pages were written through the API.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PageHistory } from '../../../site/settings.ts';
import { gitDir } from '../../project-files.ts';
import { editBaseUrl, lastUpdatedDates } from '../page-history.ts';
import { repositoryUrl, syncRepository } from '../sync.ts';
import { gitOptions, type Run } from './context.ts';

export interface Synced {
  /** The commit the content root now holds; absent for a project without a repository. */
  commitSha?: string;
  /** The pages' edit links and last-updated dates (repository projects). */
  pageHistory?: PageHistory;
  /**
   * A repository project: the synced files are linked into the deployment's snapshot already, and
   * this brings the content root (what the pages API and the next sync read) to the same commit.
   * The runner calls it once the deployment is over, whatever its outcome (runner.ts).
   */
  replaceContentRoot?: (apply?: boolean) => Promise<void>;
}

export async function sync(run: Run): Promise<Synced> {
  const { ctx: { config, store }, project, deployment, label, log } = run;
  if (!project.source_repo) return {};
  const branch = deployment.branch ?? project.source_branch;
  log.line(`sync: ${project.source_repo}${branch ? ` branch ${branch}` : ' (default branch)'}`);
  if (branch) await store.updateDeployment(deployment.id, { source_branch: branch });
  await mkdir(path.dirname(run.root), { recursive: true });
  const url = repositoryUrl(config.gitUrl, project.source_repo);
  const synced = await syncRepository({
    url,
    repository: project.source_repo,
    branch,
    gitDir: gitDir(config.dataDir, project.id),
    contentRoot: run.root,
    protocols: config.gitProtocols,
    timeoutMs: config.buildTimeoutS * 1000,
    signal: run.signal,
    log: (line) => log.line(line),
    // The snapshot made in the same pass as the checkout (steps/snapshot.ts then links nothing).
    snapshot: run.snapshot,
  });
  await store.updateDeployment(deployment.id, { source_branch: synced.branch, commit_sha: synced.commitSha });
  // The default branch is recorded on the project (docs/decisions.md#projects), unless a branch was set meanwhile.
  const current = await store.getProject(project.id);
  if (!label && current && !current.source_branch) await store.updateProject(project.id, { source_branch: synced.branch });
  // One `git log` for every page's date; without it pages simply show none.
  const lastUpdated = await lastUpdatedDates(gitDir(config.dataDir, project.id), gitOptions(run)).catch(() => {
    log.line('sync: the pages\' last-updated dates could not be read from git; pages show none');
    return undefined;
  });
  return { commitSha: synced.commitSha, pageHistory: { editUrl: editBaseUrl(url, project.source_repo, synced.branch), lastUpdated }, replaceContentRoot: synced.replaceContentRoot };
}

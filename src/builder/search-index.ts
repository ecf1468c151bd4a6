// The server's side of the search index in shards (search-shards.ts; docs/decisions.md, "Search
// index in shards"): how build.ts starts the indexing process, and how a fast redeploy's new shards
// replace the previous build's in the output.
import fs from 'node:fs/promises';
import path from 'node:path';
import { removeBuildDir } from './build-roots.ts';
import { moveInto } from './output.ts';
import { isShardFolder } from './search-shards.ts';
import { pageSlug } from '../site/page-rules.ts';

/** The indexing process (run with Node, in the sandbox like the Astro worker). */
export const SEARCH_INDEX_WORKER = path.join(import.meta.dirname, 'search-index-worker.ts');

/**
 * The job the indexing process reads (search-index-worker.ts): in its environment, never a file in
 * the sandbox's reach. Made just before the process starts: its clock says what the start cost.
 */
export function searchJobEnv(job: { site: string; out: string; shardPages: number; expected?: string[] }): Record<string, string> {
  return { FOLIO_SEARCH_JOB: JSON.stringify({ ...job, launchedAt: Date.now() }) };
}

/**
 * The HTML files a fast redeploy's pages (their paths as the site knows them: `guides/install`,
 * `index`) are expected to be written as (Astro's `directory` format). A guess for the indexing
 * process to start with while Astro runs: the files Astro really wrote decide what is indexed.
 */
export const expectedPageFiles = (pages: string[]): string[] =>
  pages.map((page) => {
    const slug = pageSlug(page);
    return slug ? `${slug}/index.html` : 'index.html';
  });

/**
 * Puts a fast redeploy's index (`from`, taken and checked) over the previous build's, linked at
 * `to`: each shard it wrote replaces that shard's files (shard 0: the files at the top, the other
 * shards' folders staying), the shards it did not write stay the previous build's. Only links made
 * by the server are removed (the previous build's files stay as they are).
 */
export async function replaceShards(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  const written = await fs.readdir(from);
  if (written.includes('pagefind-entry.json')) {
    for (const name of await fs.readdir(to)) if (!isShardFolder(name)) await removeBuildDir(path.join(to, name));
  }
  for (const name of written) {
    await removeBuildDir(path.join(to, name));
    await moveInto(path.join(from, name), path.join(to, name));
  }
}

// Where the site handler (serve-site.ts) reads live builds from: the data dir (the default), or
// object storage when FOLIO_STORAGE_URL is set (object-site-source.ts). Either way a build is named
// by one string key, never by request input: a request path reaches a build's files only through
// checkRequestPath and the source's own lookup (docs/decisions.md#object-storage).
import { realpathSync } from 'node:fs';
import { open, readlink } from 'node:fs/promises';
import path from 'node:path';
import { liveLink, previewLiveLink } from '../service/project-files.ts';
import { BUILD_FILE_FLAGS, SiteFiles } from './site-files.ts';

export interface SiteSource {
  /**
   * The key of the project's live build (or of its preview of `label`), or undefined before a first
   * deployment. Asked again only after the handler heard that the project's live build changed.
   */
  liveBuild(projectId: string, label?: string): Promise<string | undefined>;
  /** The files of builds, by build key, with their lookups cached. */
  files: SiteFiles;
  /** A small regular file of a build (at most `maxBytes` of it), or undefined when it has none. */
  readSmall(build: string, rel: string, maxBytes: number): Promise<Buffer | undefined>;
}

const LIVE_TARGET = /^builds\/[0-9a-f-]{36}$/;
const PREVIEW_TARGET = /^\.\.\/\.\.\/builds\/[0-9a-f-]{36}$/;

/**
 * Live builds in the data dir: a build's key is its directory, which the project's `live` link (or
 * a preview's) points at. The link is Folio's own (always `builds/{deployment}`,
 * `../../builds/{deployment}` for a preview), so a readlink is enough.
 */
export function createDiskSiteSource(dataDir: string): SiteSource {
  // Real, so a file's real path equals its path exactly when no link was followed (site-files.ts).
  const root = realpathSync(dataDir);
  return {
    async liveBuild(projectId, label) {
      let link: string;
      let target: string;
      try {
        link = label ? previewLiveLink(root, projectId, label) : liveLink(root, projectId);
        target = await readlink(link);
      } catch {
        return undefined;
      }
      return (label ? PREVIEW_TARGET : LIVE_TARGET).test(target) ? path.join(path.dirname(link), target) : undefined;
    },
    files: new SiteFiles(),
    async readSmall(build, rel, maxBytes) {
      const handle = await open(path.join(build, rel), BUILD_FILE_FLAGS).catch(() => undefined);
      if (!handle) return undefined;
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) return undefined;
        // The file's size, not the limit: zero-filling a 16 MiB buffer blocked the event loop for
        // every first request of a newly live build (tens of ms; over 100 under load).
        const size = Math.min(stat.size, maxBytes);
        const buffer = Buffer.alloc(size);
        const { bytesRead } = await handle.read(buffer, 0, size, 0);
        return buffer.subarray(0, bytesRead);
      } catch {
        return undefined;
      } finally {
        await handle.close();
      }
    },
  };
}

// Live builds read from object storage (FOLIO_STORAGE_URL, docs/decisions.md#object-storage): the
// database says which build is live; the build's manifest (object-storage/folders.ts), fetched
// once per build, says which paths it has; a file's bytes are fetched on first use into this
// node's bounded cache (object-storage/cache.ts). A request path becomes a key only when the
// manifest lists it, after checkRequestPath accepted it: no path reaches another build's or
// project's objects.
import type { ObjectStore } from '../service/object-storage/client.ts';
import type { FileCache } from '../service/object-storage/cache.ts';
import { decodeManifest, type Manifest } from '../service/object-storage/folders.ts';
import { buildFileKey, manifestKey } from '../service/object-storage/keys.ts';
import { MEMORY_FILE_BYTES, SiteFiles, siteFileOf, type SiteFile } from './site-files.ts';
import type { SiteSource } from './site-source.ts';

/** Manifests kept in memory (the live builds being served, and a few before them). */
const MAX_MANIFESTS = 200;

export interface ObjectSiteSourceOptions {
  objects: ObjectStore;
  cache: FileCache;
  /** The id of the live build of a project (or of its preview of `label`), from the database. */
  liveBuildId(projectId: string, label?: string): Promise<string | undefined>;
}

export function createObjectSiteSource({ objects, cache, liveBuildId }: ObjectSiteSourceOptions): SiteSource {
  const manifests = new Map<string, Promise<Manifest | undefined>>();
  // A build key is `{project id}/{build id}`, made here from ids the database gave.
  const split = (build: string) => build.split('/') as [string, string];

  const manifestOf = (build: string): Promise<Manifest | undefined> => {
    let manifest = manifests.get(build);
    if (manifest) {
      manifests.delete(build); // most recently used last
    } else {
      const [projectId, buildId] = split(build);
      manifest = objects.get(manifestKey(projectId, buildId)).then((bytes) => (bytes ? decodeManifest(bytes.toString('utf8')) : undefined));
      // A failed read is tried again by the next request.
      manifest.catch(() => manifests.delete(build));
      if (manifests.size >= MAX_MANIFESTS) manifests.delete(manifests.keys().next().value!);
    }
    manifests.set(build, manifest);
    return manifest;
  };

  /** The bytes of a build's file, through the cache. */
  const fetcher = (build: string, rel: string) => () => {
    const [projectId, buildId] = split(build);
    return objects.getStream(buildFileKey(projectId, buildId, rel));
  };

  const lookUp = async (build: string, rel: string): Promise<SiteFile | null> => {
    const entry = (await manifestOf(build))?.get(rel);
    if (!entry) return null;
    const file = siteFileOf(rel, entry.size, `"${entry.sha256.slice(0, 32)}"`);
    const fetch = fetcher(build, rel);
    file.open = async () => {
      const stream = await cache.open(entry.sha256, fetch);
      if (!stream) throw new Error(`object storage lost ${rel} of build ${build}`);
      return stream;
    };
    if (entry.size <= MEMORY_FILE_BYTES) file.body = await cache.read(entry.sha256, fetch);
    return file;
  };

  return {
    async liveBuild(projectId, label) {
      const buildId = await liveBuildId(projectId, label);
      return buildId ? `${projectId}/${buildId}` : undefined;
    },
    files: new SiteFiles(lookUp),
    async readSmall(build, rel, maxBytes) {
      const entry = (await manifestOf(build))?.get(rel);
      if (!entry) return undefined;
      return (await cache.read(entry.sha256, fetcher(build, rel)))?.subarray(0, maxBytes);
    },
  };
}

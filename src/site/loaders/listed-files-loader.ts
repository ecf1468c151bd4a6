// A content loader that reads exactly the files it is given (docs/decisions.md, "Sites of 25,000
// pages, step two"): the pages and snippets of a Mintlify-layout root, as the content check listed
// them. Astro's glob loader, given one literal pattern per listed page, matched every file its walk
// found against every pattern (files × pages: about a third of a 10,000-page content sync); this one
// does the same work per file as the glob loader (read, frontmatter, schema, render or defer) and
// none across files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';

/**
 * What the loader uses of Astro's content entry types (its `ContentEntryType`, not exported from a
 * public module; the glob loader reads them from its context, which does not declare them).
 */
export interface EntryType {
  getEntryInfo: (input: { contents: string; fileUrl: URL }) => Promise<{ body?: string; data: Record<string, unknown> }> | { body?: string; data: Record<string, unknown> };
  getRenderFunction?: (config: unknown) => Promise<(entry: { id: string; data: Record<string, unknown>; body?: string; filePath?: string; digest?: string }) => Promise<unknown>>;
  contentModuleTypes?: string;
}

/** A loader's context with the entry types Astro passes to every loader. */
export type ContextWithEntryTypes = LoaderContext & { entryTypes: Map<string, EntryType> };

/** Files read at once: the glob loader's figure (its p-limit of 10). */
const CONCURRENT_READS = 10;

export interface ListedFilesOptions {
  /** Absolute folder the files are relative to. */
  base: string;
  /** The files to load, relative to `base` (POSIX separators), each exactly once. */
  files: readonly string[];
  /** The entry id of a file (relative to `base`). */
  generateId: (file: string) => string;
  /**
   * A fast redeploy's build over the previous build's carried store (content.config.ts says when
   * and why that is safe): answers true for an entry id whose file git says did not change. Such a
   * file whose entry the store holds (same id and file) is not read at all; its entry is kept.
   */
  unchanged?: (id: string) => boolean;
}

/**
 * The loader's context, as a loader around it may extend it: `fileLoaded` is told of every listed
 * file whether it was read (rendered-files.ts logs how many were).
 */
export type ListedFilesContext = ContextWithEntryTypes & { fileLoaded?: (read: boolean) => void };

/**
 * Loads exactly `files`, as Astro's glob loader loads the files it matches: each entry keeps its
 * file's digest, and a file whose digest is the stored one is not parsed or rendered again; a file
 * `unchanged` names, with a stored entry, is not even read. Entries of files no longer listed are
 * deleted. In `astro dev` the listed files are watched (a change or a re-created file is loaded
 * again, a removed one leaves the collection); a file that is not listed never becomes an entry.
 */
export function listedFiles({ base, files, generateId, unchanged }: ListedFilesOptions): Loader {
  return {
    name: 'folio-listed-files',
    load: async (context) => {
      const { config, logger, parseData, generateDigest, watcher, entryTypes, fileLoaded } = context as ListedFilesContext;
      // Astro's store for one collection has addAssetImports too (mutable-data-store.js), undeclared.
      const store = context.store as LoaderContext['store'] & { addAssetImports?: (assets: string[], filePath: string) => void };
      const renderers = new Map<EntryType, Awaited<ReturnType<NonNullable<EntryType['getRenderFunction']>>>>();
      // Entries name their file relative to the root (Astro's rule): the listed files' folder once,
      // each file's name appended (path.relative per file was a tenth of a one-page sync at 25,000 pages).
      const baseFromRoot = path.relative(fileURLToPath(config.root), base).split(path.sep).join('/');
      /** Entry id of each loaded file, to tell a second file with the same id. */
      const loadedFrom = new Map<string, string>();

      /** An entry of `filePath` unchanged since the store was written: only what the bundle must still import. */
      const keep = (stored: NonNullable<ReturnType<typeof store.get>>, filePath: string) => {
        if (stored.deferredRender) store.addModuleImport(filePath);
        if (stored.assetImports?.length) store.addAssetImports?.(stored.assetImports, filePath);
      };

      /** `trust`: the file may be taken as unchanged without reading it (`unchanged`; never in astro dev's reloads). */
      async function load(file: string, trust: boolean): Promise<void> {
        const entryType = entryTypes.get(path.extname(file));
        if (!entryType) {
          logger.warn(`No entry type found for ${file}`);
          return;
        }
        const filePath = path.join(base, file);
        const id = generateId(file);
        const relativePath = path.posix.join(baseFromRoot, file);
        const other = loadedFrom.get(id);
        if (other !== undefined && other !== file) logger.warn(`${file} and ${other} are both the page ${id}: the last one read is kept`);
        loadedFrom.set(id, file);
        const stored = store.get(id);
        if (trust && stored && stored.filePath === relativePath && unchanged?.(id)) {
          fileLoaded?.(false);
          return keep(stored, relativePath);
        }
        let contents: string;
        try {
          contents = await fs.promises.readFile(filePath, 'utf8');
        } catch (error) {
          logger.error(`Error reading ${file}: ${(error as Error).message}`);
          return;
        }
        fileLoaded?.(true);
        const digest = generateDigest(contents);
        if (stored && stored.digest === digest && stored.filePath === relativePath) return keep(stored, relativePath);
        const fileUrl = pathToFileURL(filePath);
        const { body, data } = await entryType.getEntryInfo({ contents, fileUrl });
        const parsed = await parseData({ id, data, filePath });
        const entry = { id, data: parsed, body, filePath: relativePath, digest };
        if (entryType.getRenderFunction) {
          let render = renderers.get(entryType);
          if (!render) {
            render = await entryType.getRenderFunction(config);
            renderers.set(entryType, render);
          }
          let rendered: { metadata?: { imagePaths?: string[] } } | undefined;
          try {
            rendered = (await render({ id, data, body, filePath, digest })) as typeof rendered;
          } catch (error) {
            logger.error(`Error rendering ${file}: ${(error as Error).message}`);
          }
          store.set({ ...entry, rendered: rendered as Parameters<typeof store.set>[0]['rendered'], assetImports: rendered?.metadata?.imagePaths });
        } else if ('contentModuleTypes' in entryType) {
          store.set({ ...entry, deferredRender: true });
        } else {
          store.set(entry);
        }
      }

      const untouched = new Set(store.keys());
      let next = 0;
      const worker = async () => {
        while (next < files.length) {
          const file = files[next++]!;
          untouched.delete(generateId(file));
          await load(file, true);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, files.length) }, worker));
      for (const id of untouched) store.delete(id);

      if (!watcher) return;
      // astro dev: the listed files, found by absolute path in one lookup each.
      const listed = new Map(files.map((file) => [path.join(base, file), file]));
      // The folder, as the glob loader watches it, not only the listed files: a page created in a new
      // folder must reach the preview's watcher (src/site/integration.ts syncs again when the lists change).
      watcher.add(base);
      const reload = async (changed: string) => {
        const file = listed.get(changed);
        if (file === undefined) return;
        try {
          await load(file, false);
          logger.info(`Reloaded data from ${file}`);
        } catch (error) {
          logger.error(`Failed to reload ${file}: ${(error as Error).message}`);
        }
      };
      watcher.on('change', reload);
      watcher.on('add', reload);
      watcher.on('unlink', (removed) => {
        const file = listed.get(removed);
        if (file !== undefined) store.delete(generateId(file));
      });
    },
  };
}

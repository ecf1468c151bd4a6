// Each page's rendered content in a file of its own beside Astro's content store, not inside it
// (docs/decisions.md, "Sites of 25,000 pages, step two"). Astro bundles the whole store into the
// build as one module (`export default JSON.parse("…")`, one string of every entry), and the
// bundler copies that string: at 25,000 pages it asked for 348 MB at once and failed under the
// build's memory limit. A page's rendered HTML (Markdown) or tree (an MDX page kept as data) was
// about two thirds of the store; it is read back when that one page renders.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';

/** The key of `rendered.metadata` that names the file holding the entry's rendered content. */
const RENDERED_FILE = 'folioRenderedFile';

/** Where a collection's rendered content goes: under Astro's cache folder of this build, beside the store. */
export const renderedDir = (cacheDir: URL, collection: string) => path.join(fileURLToPath(cacheDir), 'folio-rendered', collection);

/**
 * `loader`, with the rendered content of every entry it stores written to a file of its own (named
 * by a hash of the entry's id, never by the id: ids come from the tenant's file names), and the
 * entry stored with the file's path, relative to the build root, in its place: a fast redeploy's
 * build carries the previous build's cache into a build root of its own (src/builder/build.ts, `carryCache`).
 * Logs how many pages were read again: the files listed-files-loader.ts read (it keeps an entry
 * git says is unchanged without reading its file), or with Astro's glob loader, which reads every
 * file, the entries stored again (it keeps an entry whose file has the stored digest).
 */
export function renderedInFiles(loader: Loader): Loader {
  return {
    ...loader,
    load: async (context: LoaderContext) => {
      const root = fileURLToPath(context.config.root);
      const dir = renderedDir(context.config.cacheDir, context.collection);
      fs.mkdirSync(dir, { recursive: true });
      const carried = context.store.keys().length;
      let stored = 0;
      let read: number | undefined;
      const fileLoaded = (wasRead: boolean) => (read = (read ?? 0) + (wasRead ? 1 : 0));
      const store: LoaderContext['store'] = {
        ...context.store,
        set: (entry) => {
          stored++;
          if (!entry.rendered) return context.store.set(entry);
          const file = path.join(dir, `${createHash('sha256').update(entry.id).digest('hex').slice(0, 40)}.json`);
          fs.writeFileSync(file, JSON.stringify(entry.rendered));
          return context.store.set({ ...entry, rendered: { html: '', metadata: { [RENDERED_FILE]: path.relative(root, file) } } });
        },
      };
      await loader.load({ ...context, store, fileLoaded } as LoaderContext);
      // Read by bench:deploy and test/service/fast-redeploy*.test.ts.
      if (carried) context.logger.info(`[folio] content sync: ${read ?? stored} of ${context.store.keys().length} ${context.collection} read again (the others unchanged since the previous build)`);
    },
  };
}

/** `entry` as Astro's `render()` and static-mdx-render.ts expect it: its rendered content read back from its file under `buildRoot`. */
export function withRenderedContent<T extends { rendered?: { metadata?: Record<string, unknown> } }>(entry: T, buildRoot: string): T {
  const file = entry.rendered?.metadata?.[RENDERED_FILE];
  if (typeof file !== 'string') return entry;
  return { ...entry, rendered: JSON.parse(fs.readFileSync(path.resolve(buildRoot, file), 'utf8')) as T['rendered'] };
}

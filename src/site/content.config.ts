// Content collections of the site role: the pages and snippets of the content root being built, in
// its layout (layout.ts: `content/` and `_snippets/`, or Mintlify's pages beside docs.json and
// `snippets/`). Both live outside the project, so the loaders get absolute bases.
import path from 'node:path';
import { defineCollection } from 'astro/content/config';
import type { Loader, LoaderContext } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { listedFiles, type ContextWithEntryTypes, type EntryType } from './loaders/listed-files-loader.ts';
import { renderedInFiles } from './loaders/rendered-files.ts';
import { z } from 'astro/zod';
import { siteBuild } from './build-settings.ts';
import { staticMdxPages } from './markdown/static-mdx.ts';

const { contentRoot, snippetsDir, layout, pageFiles, snippetFiles, onlyPages, staticMdx, carriedCache } = siteBuild;

/** Files of the content root's list, relative to their folder `dir` (`''`: the root itself). */
const under = (dir: string, list: string[]) => list.map((f) => (dir ? f.slice(dir.length + 1) : f));

/**
 * A fast redeploy's partial build (docs/decisions.md#fast-redeploys): every page is still listed by
 * the same loader, with its frontmatter and body (navigation, titles, llms files and the sitemap
 * read them all), but only the pages in `only` are compiled and rendered: the others get no
 * rendered HTML (.md) and no content module (.mdx), so Vite never compiles them.
 */
function renderOnly(loader: Loader, only: ReadonlySet<string>): Loader {
  return {
    ...loader,
    load: (context: LoaderContext) => {
      const { entryTypes } = context as ContextWithEntryTypes;
      const renderingOnly = new Map(
        [...entryTypes].map(([ext, type]): [string, EntryType] => {
          const getRenderFunction = type.getRenderFunction;
          if (!getRenderFunction) return [ext, type];
          return [ext, { ...type, getRenderFunction: async (config) => {
            const render = await getRenderFunction(config);
            return (entry) => (only.has(entry.id) ? render(entry) : Promise.resolve(undefined));
          } }];
        }),
      );
      const store: LoaderContext['store'] = {
        ...context.store,
        // A store carried from the previous build (src/builder/build.ts, `carryCache`) may hold an entry the
        // wrong way for this build: a page to render without its rendered content (the previous
        // build did not render it), or another one with a content module Vite would compile. Such
        // an entry is read again, as if not stored; every other unchanged entry is kept.
        get: <TData extends Record<string, unknown>>(id: string) => {
          const stored = context.store.get<TData>(id);
          const rendered = !!stored?.rendered || !!stored?.deferredRender;
          return stored && (only.has(id) ? rendered : !stored.deferredRender) ? stored : undefined;
        },
        set: (entry) => context.store.set(only.has(entry.id) ? entry : { ...entry, deferredRender: undefined, rendered: undefined }),
      };
      return loader.load({ ...context, store, entryTypes: renderingOnly } as LoaderContext);
    },
  };
}

/**
 * A loader made from a list of files, made again when astro dev syncs the content with a new list
 * (`refreshContent` with `{ pageFiles, snippetFiles }`, integration.ts: a page added, docs.json
 * saved), so a new page shows without a restart (docs/decisions.md#docsjson-changes-in-the-preview).
 */
function listed(key: 'pageFiles' | 'snippetFiles', files: string[], make: (files: string[]) => Loader): Loader {
  let loader = make(files);
  return {
    name: loader.name,
    load: (context) => {
      const next = context.refreshContextData?.[key];
      if (Array.isArray(next)) loader = make(next as string[]);
      // Tells integration.ts this sync did run (Astro's refreshContent may skip one silently).
      const synced = context.refreshContextData?.synced;
      if (typeof synced === 'function') (synced as () => void)();
      return loader.load(context);
    },
  };
}

// The page path is the file path without extension (docs/decisions.md#pages), not a slugified id.
const pageId = (file: string) => file.replace(/\.mdx?$/, '');

/**
 * A fast redeploy's build over the previous build's store (docs/decisions.md, "A fast redeploy's
 * content sync reads only the changed pages"): which entries are kept without reading their file.
 * Safe because the store is that previous build's (the server carried it, build-cache.ts) and the
 * plan (src/service/deployments/fast-redeploy.ts, planRedeploy) compared that build's commit with
 * this one by `git diff`: only the bodies of existing pages changed, and those pages are all in
 * `onlyPages` (with any page whose last-updated date moved); any added, removed or renamed file,
 * any snippet, docs.json or other file changed, made it a full build. So every other listed file
 * has the bytes the stored entry was made from. Anything else (a full build, astro dev, a cache
 * not carried or refused) reads every file.
 */
const only = onlyPages && new Set(onlyPages);
const unchanged = only && carriedCache ? (id: string) => !only.has(id) : undefined;
// Folio's layout: everything under content/ (one pattern; `astro dev` picks up new pages). Mintlify's:
// exactly the listed page files, read by name (a glob pattern per page matched files × pages).
const pagesBase = path.join(contentRoot, layout.pagesDir);
const listedLoader = listed('pageFiles', pageFiles, (files) => layout.kind === 'folio'
  ? glob({ pattern: '**/*.{md,mdx}', base: pagesBase, generateId: ({ entry }) => pageId(entry) })
  : listedFiles({ base: pagesBase, files: under('', files), generateId: pageId, unchanged }));
const pageLoader = only ? renderOnly(listedLoader, only) : listedLoader;

const pages = defineCollection({
  // MDX pages without code are compiled at sync time into data, not into a module each
  // (docs/decisions.md#mdx-pages-as-data); a build with code keeps the MDX path for all of them.
  // Outside renderOnly, so that a partial build compiles only its pages.
  // Each page's rendered content goes into a file of its own, read when the page renders, so that
  // the store Astro bundles as one module holds no page's HTML or tree (loaders/rendered-files.ts).
  loader: renderedInFiles(staticMdx ? staticMdxPages(pageLoader) : pageLoader),
  schema: z.looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    order: z.number().optional(),
  }),
});

const snippets = defineCollection({
  // The snippets folder is optional; the glob loader would warn about a missing base.
  loader: listed('snippetFiles', snippetFiles, (files) => !files.length
    ? { name: 'no-snippets', load: async (context) => context.store.clear() }
    : layout.kind === 'folio'
      ? glob({ pattern: '**/*.{md,mdx}', base: snippetsDir ?? path.join(contentRoot, layout.snippetsDir), generateId: ({ entry }) => entry })
      // No snippet changes in a fast redeploy (planRedeploy): all of them are kept as stored.
      : listedFiles({ base: snippetsDir ?? path.join(contentRoot, layout.snippetsDir), files: under(layout.snippetsDir, files), generateId: (file) => file, unchanged: unchanged && (() => true) })),
});

export const collections = { pages, snippets };

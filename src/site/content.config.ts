// Content collections of the site role: the pages and snippets of the content root being built, in
// its layout (layout.ts: `content/` and `_snippets/`, or Mintlify's pages beside docs.json and
// `snippets/`). Both live outside the project, so the glob loaders get absolute bases.
import path from 'node:path';
import { defineCollection } from 'astro/content/config';
import type { Loader, LoaderContext } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { siteBuild } from './build-settings.ts';
import { staticMdxPages } from './markdown/static-mdx.ts';

const { contentRoot, snippetsDir, layout, pageFiles, snippetFiles, onlyPages, staticMdx } = siteBuild;

/** Glob syntax in a file name is taken literally. */
const literal = (file: string) => file.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
const under = (dir: string, list: string[]) => list.map((f) => literal(dir ? f.slice(dir.length + 1) : f));

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
      // The glob loader reads the entry types from its context, though LoaderContext does not declare them.
      const { entryTypes } = context as LoaderContext & { entryTypes: Map<string, EntryType> };
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
        set: (entry) => context.store.set(only.has(entry.id) ? entry : { ...entry, deferredRender: undefined, rendered: undefined }),
      };
      return loader.load({ ...context, store, entryTypes: renderingOnly } as LoaderContext);
    },
  };
}

/** What renderOnly uses of Astro's content entry types (its `ContentEntryType`, not exported from a public module). */
interface EntryType {
  getRenderFunction?: (config: unknown) => Promise<(entry: { id: string }) => Promise<unknown>>;
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
      return loader.load(context);
    },
  };
}

const globLoader = listed('pageFiles', pageFiles, (files) => glob({
    // Folio's layout: everything under content/. Mintlify's: exactly the listed page files.
    pattern: layout.kind === 'folio' ? '**/*.{md,mdx}' : under('', files),
    base: path.join(contentRoot, layout.pagesDir),
    // The page path is the file path without extension (docs/decisions.md#pages), not a slugified id.
    generateId: ({ entry }) => entry.replace(/\.mdx?$/, ''),
  }));
const pageLoader = onlyPages ? renderOnly(globLoader, new Set(onlyPages)) : globLoader;

const pages = defineCollection({
  // MDX pages without code are compiled at sync time into data, not into a module each
  // (docs/decisions.md#mdx-pages-as-data); a build with code keeps the MDX path for all of them.
  // Outside renderOnly, so that a partial build compiles only its pages.
  loader: staticMdx ? staticMdxPages(pageLoader) : pageLoader,
  schema: z.looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    order: z.number().optional(),
  }),
});

const snippets = defineCollection({
  // The snippets folder is optional; the glob loader would warn about a missing base.
  loader: listed('snippetFiles', snippetFiles, (files) => files.length
    ? glob({ pattern: layout.kind === 'folio' ? '**/*.{md,mdx}' : under(layout.snippetsDir, files), base: snippetsDir ?? path.join(contentRoot, layout.snippetsDir), generateId: ({ entry }) => entry })
    : { name: 'no-snippets', load: async (context) => context.store.clear() }),
});

export const collections = { pages, snippets };

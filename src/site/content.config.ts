// Content collections of the site role: the pages and snippets of the content root being built, in
// its layout (layout.ts: `content/` and `_snippets/`, or Mintlify's pages beside docs.json and
// `snippets/`). Both live outside the project, so the glob loaders get absolute bases.
import path from 'node:path';
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { siteBuild } from './build-settings.ts';

const { contentRoot, snippetsDir, layout, pageFiles, snippetFiles } = siteBuild;

/** Glob syntax in a file name is taken literally. */
const literal = (file: string) => file.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
const under = (dir: string, list: string[]) => list.map((f) => literal(dir ? f.slice(dir.length + 1) : f));

const pages = defineCollection({
  loader: glob({
    // Folio's layout: everything under content/. Mintlify's: exactly the listed page files.
    pattern: layout.kind === 'folio' ? '**/*.{md,mdx}' : under('', pageFiles),
    base: path.join(contentRoot, layout.pagesDir),
    // The page path is the file path without extension (docs/decisions.md#pages), not a slugified id.
    generateId: ({ entry }) => entry.replace(/\.mdx?$/, ''),
  }),
  schema: z.looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    order: z.number().optional(),
  }),
});

const snippets = defineCollection({
  // The snippets folder is optional; the glob loader would warn about a missing base.
  loader: snippetsDir && snippetFiles.length
    ? glob({ pattern: layout.kind === 'folio' ? '**/*.{md,mdx}' : under(layout.snippetsDir, snippetFiles), base: snippetsDir, generateId: ({ entry }) => entry })
    : () => [],
});

export const collections = { pages, snippets };

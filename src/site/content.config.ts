// Content collections of the site role: the pages (`content/`) and snippets (`_snippets/`) of the
// content root being built. Both live outside the project, so the glob loaders get absolute bases.
import path from 'node:path';
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { siteBuild } from './build-settings.ts';

const { contentRoot, snippetsDir } = siteBuild;

const pages = defineCollection({
  loader: glob({
    pattern: '**/*.{md,mdx}',
    base: path.join(contentRoot, 'content'),
    // The page path is the file path without extension (docs/decisions.md#pages), not a slugified id.
    generateId: ({ entry }) => entry.replace(/\.mdx?$/, ''),
  }),
  schema: z.looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    order: z.number().optional(),
    // Mintlify's API pages: the operation this page documents, and its playground.
    openapi: z.string().optional(),
    playground: z.enum(['interactive', 'simple', 'none']).optional(),
  }),
});

const snippets = defineCollection({
  // `_snippets/` is optional; the glob loader would warn about a missing base.
  loader: snippetsDir ? glob({ pattern: '**/*.{md,mdx}', base: snippetsDir, generateId: ({ entry }) => entry }) : () => [],
});

export const collections = { pages, snippets };

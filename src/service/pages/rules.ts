// Validation rules for page request bodies (docs/decisions.md#pages), as zod schemas. The API parses bodies
// with these once; the pages service receives typed values. Rules on the content itself (MDX,
// components, snippets) need the project's files and are checked by ./content-check.ts.
import { z } from 'zod';
import { newPagePathProblem } from './paths.ts';

export const MAX_TITLE_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 1000;

const CONTROL = /\p{Cc}/u;

const text = (field: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`) });

/** One line of plain text: `max` characters counted as code points, not blank, no control characters. */
const line = (field: string, max: number) =>
  text(field)
    .refine((s) => {
      const length = [...s].length;
      return length >= 1 && length <= max;
    }, `${field} must be 1 to ${max} characters`)
    .refine((s) => s.trim() !== '', `${field} must not be blank`)
    .refine((s) => !CONTROL.test(s), `${field} must not contain control characters (such as line breaks)`);

export const pageTitleField = line('title', MAX_TITLE_LENGTH);
export const pageDescription = line('description', MAX_DESCRIPTION_LENGTH);

/** The page body. Frontmatter is written from title and description, never sent in content. */
export const pageContent = text('content').refine(
  (s) => !/^---[ \t]*\r?\n/.test(s),
  'content must not start with a frontmatter block ("---"): send title and description as fields',
);

export const newPagePath = text('path').superRefine((s, ctx) => {
  const problem = newPagePathProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Frontmatter keys the site reads besides title and description (docs/decisions.md#docsjson-navigation):
 * the sidebar's title, icon and tag, the order of derived navigation, hidden and noindex pages, a
 * sidebar link to another site. `null` removes a key (in updates).
 */
export const PAGE_FRONTMATTER_KEYS = ['sidebarTitle', 'icon', 'tag', 'order', 'hidden', 'noindex', 'url'] as const;
const ICON = /^(?:https?:\/\/[^\s"'<>\\]+|[^\s"'<>:\\]+)$/;
export const pageFrontmatter = z.strictObject({
  sidebarTitle: line('frontmatter.sidebarTitle', MAX_TITLE_LENGTH).nullable().optional(),
  icon: line('frontmatter.icon', 300).refine((s) => ICON.test(s), 'frontmatter.icon must be an icon name such as "rocket", a path or an http(s) URL').nullable().optional(),
  tag: line('frontmatter.tag', 40).nullable().optional(),
  order: z.number({ error: 'frontmatter.order must be a number' }).finite().nullable().optional(),
  hidden: z.boolean({ error: 'frontmatter.hidden must be true or false' }).nullable().optional(),
  noindex: z.boolean({ error: 'frontmatter.noindex must be true or false' }).nullable().optional(),
  url: line('frontmatter.url', 2000).refine((s) => /^https?:\/\/[^\s"'<>\\]+$/.test(s), 'frontmatter.url must be an http(s) URL').nullable().optional(),
});
export type PageFrontmatter = z.infer<typeof pageFrontmatter>;

export const createPageBody = z.strictObject({
  path: newPagePath,
  title: pageTitleField,
  content: pageContent,
  description: pageDescription.optional(),
  frontmatter: pageFrontmatter.optional(),
});

export const updatePageBody = z.strictObject({
  title: pageTitleField.optional(),
  /** `null` removes the description. */
  description: pageDescription.nullable().optional(),
  content: pageContent.optional(),
  frontmatter: pageFrontmatter.optional(),
});

export type CreatePageInput = z.infer<typeof createPageBody>;
export type UpdatePageInput = z.infer<typeof updatePageBody>;

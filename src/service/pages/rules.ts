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

export const createPageBody = z.strictObject({
  path: newPagePath,
  title: pageTitleField,
  content: pageContent,
  description: pageDescription.optional(),
});

export const updatePageBody = z.strictObject({
  title: pageTitleField.optional(),
  /** `null` removes the description. */
  description: pageDescription.nullable().optional(),
  content: pageContent.optional(),
});

export type CreatePageInput = z.infer<typeof createPageBody>;
export type UpdatePageInput = z.infer<typeof updatePageBody>;

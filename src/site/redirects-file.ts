// The redirects of a built site, as the build stores them with its output for the hosting layer
// (src/hosting/redirects.ts compiles and serves them; docs/decisions.md#redirects), and the bound on
// their size that both the build and the hosting layer apply (tenant-limits.ts).
import { z } from 'zod';
import { redirectRule, type RedirectRule } from './config/config-values.ts';
import { REDIRECT_LIMITS } from './tenant-limits.ts';

/** Where a build's redirects are stored, inside its output (never served). */
export const REDIRECTS_FILE = '_folio/redirects.json';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Why a site's redirects are more than the server keeps compiled (REDIRECT_LIMITS), or undefined.
 * A build with such redirects fails with this message; a stored file with them gives no redirects.
 */
export function redirectsSizeProblem(rules: readonly unknown[]): string | undefined {
  const fix = 'merge rules with patterns such as "/old/:slug*" → "/new/:slug*", or remove rules for pages no one visits any more';
  if (rules.length > REDIRECT_LIMITS.rules) return `${count(rules.length)} rules, more than the ${count(REDIRECT_LIMITS.rules)} a site may have: ${fix}`;
  let segments = 0;
  let characters = 0;
  // Counted before each rule is validated (a stored file is checked again): a value that is not a string counts nothing.
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  for (const rule of rules as ReadonlyArray<Partial<Record<keyof RedirectRule, unknown>> | null>) {
    const source = text(rule?.source);
    for (const part of source.split('/')) if (part) segments++;
    characters += source.length + text(rule?.destination).length;
  }
  if (segments > REDIRECT_LIMITS.segments) return `the sources have ${count(segments)} path segments in all, more than the ${count(REDIRECT_LIMITS.segments)} a site may have: ${fix}`;
  if (characters > REDIRECT_LIMITS.characters) return `the sources and destinations have ${count(characters)} characters in all, more than the ${count(REDIRECT_LIMITS.characters)} a site may have: ${fix}`;
  return undefined;
}

export const redirectsFileSchema = z.object({
  // The size first, so that a file over the limits costs no validation of each of its rules.
  rules: z
    .array(z.unknown())
    .superRefine((rules, ctx) => {
      const problem = redirectsSizeProblem(rules);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .pipe(z.array(redirectRule)),
  /** docs.json `errors.404.redirect`: unknown paths go to the home page instead of the 404 page. */
  notFoundToHome: z.boolean().optional(),
});
export type RedirectsFile = z.infer<typeof redirectsFileSchema>;

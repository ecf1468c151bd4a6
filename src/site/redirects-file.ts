// The redirects of a built site, as the build stores them with its output for the hosting layer
// (src/hosting/redirects.ts compiles and serves them; docs/decisions.md#redirects).
import { z } from 'zod';
import { redirectRule } from './config-values.ts';

/** Where a build's redirects are stored, inside its output (never served). */
export const REDIRECTS_FILE = '_folio/redirects.json';

export const redirectsFileSchema = z.object({
  rules: z.array(redirectRule).max(20_000),
  /** docs.json `errors.404.redirect`: unknown paths go to the home page instead of the 404 page. */
  notFoundToHome: z.boolean().optional(),
});
export type RedirectsFile = z.infer<typeof redirectsFileSchema>;

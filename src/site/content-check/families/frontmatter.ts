// The frontmatter family: the keys Astro reads before the body (a `layout` would import code at
// build time) and their types; keys Folio does not use are warnings (page-rules.ts). Runs before
// the walk, on the text: its result is the body the build compiles (check-content.ts).
// Astro's own frontmatter reader (YAML or TOML, after blank lines, ending at the first line that
// starts with --- or +++): the check must see the frontmatter and the body the build will compile.
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import { readPageMeta } from '../../page-rules.ts';
import type { Problem, Report } from '../analysis.ts';

/**
 * Checks the frontmatter as Astro reads it; returns the body Astro compiles (the frontmatter blanked
 * out, so lines and columns stay), or undefined when the frontmatter cannot be read.
 */
export function readFrontmatter(text: string, report: Report, warn: (message: string) => void): string | undefined {
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(text, { frontmatter: 'empty-with-spaces' });
  } catch (error) {
    const language = /^\uFEFF?\s*\+\+\+/.test(text) ? 'TOML' : 'YAML';
    report(undefined, `frontmatter is not valid ${language}: ${(error as { reason?: string }).reason ?? (error as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (parsed.rawFrontmatter) {
    checkFrontmatter(parsed.frontmatter, report);
    if (!Array.isArray(parsed.frontmatter)) readPageMeta(parsed.frontmatter).warnings.forEach(warn);
  }
  return parsed.content;
}

/** Problems of frontmatter as Astro parsed it (reported at 1:1). */
export function frontmatterProblems(fm: Record<string, unknown>, file: string): Problem[] {
  const problems: Problem[] = [];
  checkFrontmatter(fm, (_, message) => problems.push({ file, line: 1, column: 1, message }));
  return problems;
}

function checkFrontmatter(fm: Record<string, unknown>, report: Report) {
  const node = undefined; // frontmatter problems are reported at 1:1
  if (Array.isArray(fm)) {
    report(node, 'frontmatter must be a mapping of keys to values');
    return;
  }
  if ('layout' in fm) report(node, 'frontmatter key "layout" is not allowed (it would import code at build time)');
  for (const key of ['title', 'description'] as const) {
    if (key in fm && typeof fm[key] !== 'string') report(node, `frontmatter "${key}" must be a string`);
  }
  if ('order' in fm && (typeof fm.order !== 'number' || !Number.isFinite(fm.order))) {
    report(node, 'frontmatter "order" must be a number');
  }
}

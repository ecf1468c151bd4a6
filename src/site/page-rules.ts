// How a page file becomes what readers see: its title and its address on the site (docs/decisions.md#pages,
// §9). Plain functions without Astro imports, so the pages API answers with the very title and
// URL the site build gives a page.

/** The site URL path of a page: `/` for `index`, `/guides/` for `guides/index`, `/guides/install/`. */
export function pageHref(path: string): string {
  if (path === 'index') return '/';
  return `/${path.replace(/\/index$/, '').split('/').map(encodeURIComponent).join('/')}/`;
}

/** The catch-all route param of a page (undefined for the home page). */
export function pageSlug(path: string): string | undefined {
  if (path === 'index') return undefined;
  return path.replace(/\/index$/, '');
}

/**
 * A page's title: the frontmatter `title`, else the first `# heading` outside code and comments,
 * else the file name (the folder's name for an `index` page).
 */
export function pageTitle(frontmatterTitle: unknown, body: string, path: string): string {
  if (typeof frontmatterTitle === 'string') return frontmatterTitle;
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(stripCodeAndComments(body))?.[1]?.trim();
  if (heading) return heading;
  const parts = path.split('/');
  const fileName = parts.at(-1) ?? path;
  return humanize(fileName === 'index' ? (parts.at(-2) ?? 'Home') : fileName);
}

/** True when the body starts with its own `# heading` (the layout then adds no title heading). */
export function startsWithTitleHeading(body: string): boolean {
  // Imports (of snippets or components) at the top of an MDX page come before its first heading.
  return /^#\s/.test(stripCodeAndComments(body).trimStart().replace(LEADING_IMPORTS, ''));
}

const LEADING_IMPORTS = /^(?:import\s[^\n]*(?:\n|$)\s*)+/;

/** A file or folder name as a title: `getting-started` → `Getting started`. */
export function humanize(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function stripCodeAndComments(body: string): string {
  return body.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/\{\/\*[\s\S]*?\*\/\}/g, '');
}

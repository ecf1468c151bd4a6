// Page paths (docs/decisions.md#pages): the rules for paths the API creates, the safety rules for paths it
// reads, and how a path maps to files under `content/` and to an address on the project's site.
import { pageHref } from '../../site/page-rules.ts';

export const MAX_SEGMENTS = 8;
export const MAX_PATH_LENGTH = 200;
const SEGMENT = /^[a-z0-9][a-z0-9_-]*$/;
/** Reads accept repository names too (upper case, spaces, dots), but never this long. */
const MAX_READ_PATH_LENGTH = 1024;

/** Why `path` may not be created through the API, naming the field; undefined when it may. */
export function newPagePathProblem(path: string): string | undefined {
  if (path.length === 0) return 'path must not be empty';
  if (path.length > MAX_PATH_LENGTH) return `path must be at most ${MAX_PATH_LENGTH} characters`;
  if (path.endsWith('/')) return 'path must not end with "/"';
  if (path.startsWith('/')) return 'path must not start with "/" (write guides/install, not /guides/install)';
  const segments = path.split('/');
  if (segments.length > MAX_SEGMENTS) return `path must have at most ${MAX_SEGMENTS} segments`;
  for (const segment of segments) {
    if (segment === '') return 'path must not contain empty segments ("//")';
    if (segment === '.' || segment === '..') return 'path must not contain "." or ".." segments';
    if (segment.startsWith('_')) return `path segment "${segment}" must not start with "_" (reserved for files that are not pages)`;
    if (!SEGMENT.test(segment)) {
      return `path segment "${segment}" must be lower-case letters, digits, "-" or "_", starting with a letter or digit`;
    }
  }
  return undefined;
}

/**
 * Why `path` can never name a page file under `content/`, if it cannot: nothing may resolve
 * outside it. Repository pages may have other names than API pages, so reads accept more.
 */
export function pagePathProblem(path: string): string | undefined {
  if (path.length === 0 || path.length > MAX_READ_PATH_LENGTH) return `path must be 1 to ${MAX_READ_PATH_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return 'path must not contain control characters or "\\"';
  if (path.startsWith('/')) return 'path must not start with "/"';
  for (const segment of path.split('/')) {
    if (segment === '') return 'path must not contain empty segments';
    if (segment === '.' || segment === '..') return 'path must not contain "." or ".." segments';
    if (segment.startsWith('.')) return 'path segments must not start with "."';
  }
  return undefined;
}

/** The page files a path may name, relative to `content/`, in the order a read prefers them. */
export function pageFileCandidates(path: string): string[] {
  return [`${path}.mdx`, `${path}.md`];
}

/** The page path of a file relative to `content/` (`guides/install.mdx` → `guides/install`). */
export function pathOfFile(file: string): string {
  return file.replace(/\.mdx?$/, '');
}

/** The site address of a page relative to the site root: `` for `index`, `guides/` for `guides/index`. */
export function pageAddress(path: string): string {
  return pageHref(path).slice(1);
}

/** The other page path served at the same address (`guides` and `guides/index`), if any. */
export function sameAddressPath(path: string): string | undefined {
  if (path === 'index') return undefined;
  return path.endsWith('/index') ? path.slice(0, -'/index'.length) : `${path}/index`;
}

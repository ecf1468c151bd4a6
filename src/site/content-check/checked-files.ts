// What the check before a build passed, handed to the build so that it does not check the same text
// twice: one SHA-256 digest per page or snippet that had no problem, of its text and of how it was
// checked (path, kind, format). The build's own check (build-check.ts) still runs on every file it
// compiles, but skips the tree walk when the text it compiles comes from a file whose digest is in
// this list: that exact text was checked, with the same parser and rules. Anything else (a file
// changed since, a file the check before did not see) is walked in full. Only default-policy builds
// use it; builds with code always check everything again (docs/decisions.md#mintlify-components).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CheckOptions } from './check-content.ts';

/** Marks the digests of OpenAPI documents (src/site/openapi/load.ts) among those of pages and snippets. */
export const OPENAPI_DIGEST_PREFIX = 'openapi:';

/**
 * Mark, again, the digest of a file that passed with props a built-in component does not take, or
 * with import or export statements: only such a file needs the build's walk that removes those
 * props (component-props.ts) or rewrites those statements (snippet-imports.ts); the others skip it.
 */
export const DROPS_PROPS_PREFIX = 'drops-props:';
export const HAS_ESM_PREFIX = 'has-esm:';

/** The file in a build's root that lists the digests (written by the parent before the build starts). */
export const CHECKED_FILE = 'checked-content.json';

/** The digest of `text` checked as `options` say. */
export function checkedDigest(text: string, options: Pick<CheckOptions, 'file' | 'kind' | 'format'>): string {
  const format = options.format ?? (options.file.endsWith('.md') ? 'md' : 'mdx');
  return createHash('sha256').update(`${options.file}\0${options.kind}\0${format}\0`).update(text).digest('hex');
}

/** Writes the digests into the build root `buildRoot`. */
export async function writeCheckedFile(buildRoot: string, digests: string[]): Promise<void> {
  // `wx`: the build root is the sandbox uid's, and a process of it (a warm worker's) may have put a link at this name: never followed.
  await fs.promises.writeFile(path.join(buildRoot, CHECKED_FILE), JSON.stringify(digests), { mode: 0o644, flag: 'wx' });
}

/** The digests the parent wrote into `buildRoot`; empty when there are none (every file is then walked). */
export function readCheckedFile(buildRoot: string): ReadonlySet<string> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(buildRoot, CHECKED_FILE), 'utf8'));
    return new Set(Array.isArray(parsed) ? parsed.filter((d): d is string => typeof d === 'string') : []);
  } catch {
    return new Set();
  }
}

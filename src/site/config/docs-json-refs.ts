// `$ref` in docs.json, as Mintlify resolves it: any object holding `"$ref": "<relative path>"` is
// replaced by the JSON of that file; when the file holds an object, the other keys written beside
// `$ref` are laid over it, otherwise they are ignored (a warning). Referenced files may hold
// `$ref`s of their own, resolved relative to themselves (docs/decisions.md#docsjson-as-mintlify-reads-it).
//
// Tenant content is hostile: a reference must name a `.json` file inside the content root, reached
// without a symbolic link, and resolving is bounded (file size, number of references, total text,
// nesting), so a file that references itself, or the same file a million times, costs a bounded
// amount of work. Problems name the file and key holding the `$ref`; every reference is tried, so
// one run reports them all.
import fs from 'node:fs';
import path from 'node:path';
import { isObject, parseJsonText, DocsConfigError, type DocsConfigIssue } from './config-values.ts';
import { jsonLocations, positionOf, type TextPosition } from './json-locations.ts';

/** A referenced file may be at most this large (docs.json itself is read by the content check). */
export const MAX_REF_FILE_BYTES = 4 * 1024 * 1024;
/** References resolved per docs.json, counting each use of a file again. */
export const MAX_REFS = 1000;
/**
 * Text parsed for references per docs.json, counting each use again (the validated value stays
 * linear in it). Resolving runs on the server's event loop where the API shows a repository's
 * docs.json: 32 MiB (one 4 MiB list used 8 times) held it for 4 to 6 seconds per read.
 */
export const MAX_REF_TOTAL_BYTES = 4 * 1024 * 1024;
/** Files referencing files, from docs.json down. */
export const MAX_REF_DEPTH = 32;
/**
 * Objects and arrays inside each other in the resolved value, counting the levels of every file on
 * the way down: a file nested 190 levels deep referencing another that is would otherwise make
 * key paths thousands of keys long.
 */
export const MAX_NESTING = 200;
/** Problems with references listed before resolving stops (the docs.json is refused anyway). */
export const MAX_REF_PROBLEMS = 100;

type KeyPath = readonly PropertyKey[];

/**
 * A key path sharing its parent's (one object per level, not a copy of the whole path per value),
 * so resolving stays linear in the text however deep it nests; made an array only to report a
 * problem or to remember where a reference sits.
 */
interface SharedPath {
  up: SharedPath | undefined;
  key: string;
}
const down = (from: SharedPath | undefined, key: string): SharedPath => ({ up: from, key });
const keysOf = (at: SharedPath | undefined): string[] => {
  const keys: string[] = [];
  for (let p = at; p; p = p.up) keys.push(p.key);
  return keys.reverse();
};

/** A key of the resolved value: the file that holds it and its key path inside that file. */
export interface WrittenAt {
  file: string;
  keyPath: PropertyKey[];
}

export interface ResolvedRefs {
  /** The value with every `$ref` replaced. */
  value: unknown;
  /** Where a key path of `value` was written. */
  writtenAt(keyPath: KeyPath): WrittenAt;
  /** The position of a key path of a file read (docs.json or a referenced file). */
  position(file: string, keyPath: KeyPath): TextPosition;
  /** Referenced files read, relative to the root (for re-reading when one changes). */
  files: string[];
  /** References resolved to a list with other keys beside them (ignored). */
  warnings: DocsConfigIssue[];
  /** References that could not be resolved (each names the file and key holding it). */
  problems: DocsConfigIssue[];
  /** Whether a key path lies where a reference could not be resolved (validation says nothing there). */
  underFailed(keyPath: KeyPath): boolean;
}

interface Mount {
  /** Where the file's content sits in the resolved value. */
  at: string[];
  file: string;
  /** Keys written beside the `$ref` (they belong to the holding file). */
  siblings: Set<string>;
}

const describe = (keyPath: KeyPath) => (keyPath.length ? keyPath.map(String).join('.') : '(top level)');

/**
 * Resolves every `$ref` of `raw` (the parsed `text` of `file`, at the top of `root`). Without a
 * root (a docs.json not read from a content root) a `$ref` is a problem. Every reference that
 * cannot be resolved is one of `problems`; the rest of the file is still resolved.
 */
export function resolveRefs(raw: unknown, text: string, file: string, root: string | undefined): ResolvedRefs {
  const texts = new Map<string, string>([[file, text]]);
  const locations = new Map<string, ReturnType<typeof jsonLocations>>();
  const position = (f: string, keyPath: KeyPath): TextPosition => {
    let found = locations.get(f);
    if (!found) locations.set(f, (found = jsonLocations(texts.get(f) ?? '')));
    return positionOf(found, keyPath);
  };
  const mounts: Mount[] = [{ at: [], file, siblings: new Set() }];
  const problems: DocsConfigIssue[] = [];
  const failed: string[][] = [];
  const warnings: DocsConfigIssue[] = [];
  const files = new Set<string>();
  let refs = 0;
  let totalBytes = 0;
  const issue = (f: string, keyPath: KeyPath, message: string): DocsConfigIssue => ({ file: f, key: describe(keyPath), message, ...position(f, keyPath) });
  /** Records a problem; past MAX_REF_PROBLEMS the docs.json is refused with what was found so far. */
  const problem = (found: DocsConfigIssue) => {
    problems.push(found);
    if (problems.length < MAX_REF_PROBLEMS) return;
    throw new DocsConfigError([...problems, { file, key: '(top level)', line: 1, column: 1, message: `more than ${MAX_REF_PROBLEMS} problems with references: the rest are not listed` }]);
  };

  /** `node`, written in `holder` at `inFile`, sits at `at` of the resolved value; `chain` is the files being resolved. */
  const resolve = (node: unknown, holder: string, inFile: SharedPath | undefined, at: SharedPath | undefined, chain: string[], nesting: number): unknown => {
    if (nesting > MAX_NESTING) {
      problem(issue(holder, keysOf(inFile), `nested more than ${MAX_NESTING} levels deep (counting the levels of the files that reference this one)`));
      return node;
    }
    if (Array.isArray(node)) return node.map((item, i) => resolve(item, holder, down(inFile, String(i)), down(at, String(i)), chain, nesting + 1));
    if (!isObject(node)) return node;
    const own = (obj: Record<string, unknown>, skip?: string) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(obj)) {
        if (key !== skip) out[key] = resolve(value, holder, down(inFile, key), down(at, key), chain, nesting + 1);
      }
      return out;
    };
    if (!Object.hasOwn(node, '$ref')) return own(node);
    const refKey = keysOf(down(inFile, '$ref'));
    // What a reference that cannot be resolved leaves: the keys beside it; its place is marked,
    // so validation does not report what is missing there a second time.
    const unresolved = () => {
      failed.push(keysOf(at));
      return own(node, '$ref');
    };
    const target = refTarget(node.$ref, holder);
    if ('problem' in target) {
      problem(issue(holder, refKey, target.problem));
      return unresolved();
    }
    const rel = target.file;
    if (chain.includes(rel)) {
      problem(issue(holder, refKey, `"${String(node.$ref)}" refers back to a file that refers to it (${[...chain, rel].join(' → ')}): a reference may not loop`));
      return unresolved();
    }
    if (chain.length >= MAX_REF_DEPTH) {
      problem(issue(holder, refKey, `references nested more than ${MAX_REF_DEPTH} files deep`));
      return unresolved();
    }
    if (++refs > MAX_REFS) {
      if (refs === MAX_REFS + 1) problem(issue(holder, refKey, `more than ${MAX_REFS} references in one docs.json`));
      return unresolved();
    }
    let content: string;
    try {
      content = root === undefined ? missingRoot() : (texts.get(rel) ?? readInsideRoot(root, rel));
    } catch (error) {
      if (!(error instanceof RefReadError)) throw error;
      problem(issue(holder, refKey, error.message.replace('%s', `"${String(node.$ref)}"`)));
      return unresolved();
    }
    totalBytes += content.length;
    if (totalBytes > MAX_REF_TOTAL_BYTES) {
      problem(issue(holder, refKey, `references read more than ${MAX_REF_TOTAL_BYTES / 1024 / 1024} MiB of JSON in all (each use of a file counts)`));
      return unresolved();
    }
    texts.set(rel, content);
    files.add(rel);
    let parsed: unknown;
    try {
      parsed = parseJsonText(content, rel);
    } catch (error) {
      if (!(error instanceof DocsConfigError)) throw error;
      for (const parseIssue of error.issues) problem(parseIssue);
      return unresolved();
    }
    const siblings = Object.keys(node).filter((k) => k !== '$ref');
    mounts.push({ at: keysOf(at), file: rel, siblings: new Set(siblings) });
    // The nesting goes on counting inside the referenced file.
    const resolved = resolve(parsed, rel, undefined, at, [...chain, rel], nesting);
    const rest = own(node, '$ref');
    if (isObject(resolved)) return { ...resolved, ...rest };
    if (siblings.length) {
      warnings.push(issue(holder, keysOf(down(inFile, siblings[0]!)), `ignored: "${String(node.$ref)}" holds ${Array.isArray(resolved) ? 'a list' : 'a single value'}, so the keys beside "$ref" (${siblings.join(', ')}) have nothing to be merged into`));
    }
    return resolved;
  };

  const value = resolve(raw, file, undefined, undefined, [file], 0);

  const writtenAt = (keyPath: KeyPath): WrittenAt => {
    const keys = keyPath.map(String);
    // The innermost file holding the key: a key written beside a `$ref` belongs to the file around it.
    for (let m = mounts.length - 1; m >= 0; m--) {
      const mount = mounts[m]!;
      if (mount.at.length > keys.length || mount.at.some((k, i) => keys[i] !== k)) continue;
      if (keys.length > mount.at.length && mount.siblings.has(keys[mount.at.length]!)) continue;
      return { file: mount.file, keyPath: keys.slice(mount.at.length) };
    }
    return { file, keyPath: keys };
  };
  const underFailed = (keyPath: KeyPath) => failed.some((at) => at.length <= keyPath.length && at.every((k, i) => String(keyPath[i]) === k));
  return { value, writtenAt, position, files: [...files], warnings, problems, underFailed };
}

class RefReadError extends Error {}

const missingRoot = (): never => {
  throw new RefReadError('%s cannot be read here: "$ref" works in a docs.json of a repository, where the file it names is');
};

/** The file a `$ref` names, relative to the root, or why it names none. */
function refTarget(ref: unknown, holder: string): { file: string } | { problem: string } {
  if (typeof ref !== 'string' || !ref.trim()) return { problem: 'must be the path of a JSON file, such as "./config/navigation.json"' };
  if (ref.length > 500) return { problem: 'must be a path of at most 500 characters' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) return { problem: `"${ref}" is a URL: a reference names a JSON file of the repository, such as "./config/navigation.json"` };
  if (/[#?\\\0]/.test(ref)) return { problem: `"${ref}" must be a plain path of a JSON file (no "#", "?" or "\\"), such as "./config/navigation.json"` };
  const from = path.posix.dirname(holder);
  // Relative to the holding file; a leading "/" is the content root.
  const file = path.posix.normalize(ref.startsWith('/') ? ref.slice(1) : path.posix.join(from, ref));
  if (file === '..' || file.startsWith('../') || path.posix.isAbsolute(file)) return { problem: `"${ref}" leads outside the repository: a reference must stay inside it` };
  if (!file.endsWith('.json') || file.endsWith('/')) return { problem: `"${ref}" must name a .json file` };
  return { file };
}

/** The text of `rel` under `root`, reached without a symbolic link, a regular file of bounded size. */
function readInsideRoot(root: string, rel: string): string {
  let at = root;
  const segments = rel.split('/');
  for (const [i, segment] of segments.entries()) {
    at = path.join(at, segment);
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!stat) throw new RefReadError(`%s: no file "${rel}" in the repository`);
    if (stat.isSymbolicLink()) throw new RefReadError(`%s: "${segments.slice(0, i + 1).join('/')}" is a symbolic link, which a reference never follows`);
    const last = i === segments.length - 1;
    if (!last && !stat.isDirectory()) throw new RefReadError(`%s: no file "${rel}" in the repository`);
    if (last && !stat.isFile()) throw new RefReadError(`%s: "${rel}" is not a regular file`);
    if (last && stat.size > MAX_REF_FILE_BYTES) throw new RefReadError(`%s: "${rel}" is larger than ${MAX_REF_FILE_BYTES / 1024 / 1024} MiB`);
  }
  // O_NOFOLLOW: a link swapped in after the check is refused, not followed.
  const fd = fs.openSync(at, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    if (fs.fstatSync(fd).size > MAX_REF_FILE_BYTES) throw new RefReadError(`%s: "${rel}" is larger than ${MAX_REF_FILE_BYTES / 1024 / 1024} MiB`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

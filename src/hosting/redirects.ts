// Redirects of a site (docs.json `redirects`, docs/decisions.md#redirects): compiled once per
// live build into a trie of path segments, so a request costs one walk down its own segments
// whatever the number of rules (thousands in real sites), not a scan of every rule. The table
// stays in memory while the build is live: its size is bounded as a whole (REDIRECT_LIMITS), and a
// node holds maps only for the kinds of children it has (most nodes are leaves).
//
// Source patterns, per segment: a literal; `:name` (any one segment); `prefix*` (one segment that
// starts with `prefix`, `*` alone for any); and, last only, `:name*` (the rest of the path, maybe
// empty) or `:name+` / a trailing `*` (the rest, at least one segment). The first rule in the
// file's order that matches wins. Destinations substitute `:name` / `:name*` and each `*` in order.
import { redirectSourceProblem, type RedirectRule } from '../site/config/config-values.ts';
import { redirectsFileSchema } from '../site/redirects-file.ts';

export { REDIRECTS_FILE, redirectsFileSchema, type RedirectsFile } from '../site/redirects-file.ts';

/** Paths Folio's build writes itself (assets, search index, its own data): never redirected. */
const OWN_PATHS = /^\/?(?:_astro|pagefind|_folio)(?:\/|$)/;

/** Whether a request path (`/guides/x`, or relative `guides/x`) may be redirected: not Folio's own files. */
export const redirectable = (pathname: string) => !OWN_PATHS.test(pathname);

export interface RedirectAnswer {
  /** 308 for a permanent rule (the default, as in Mintlify), 307 otherwise: both keep the method. */
  status: 307 | 308;
  location: string;
}

interface Capture {
  /** `:name` of the pattern, or undefined for `*`. */
  name?: string;
  rest: boolean;
}

interface Node {
  literal?: Map<string, Node>;
  param?: Node;
  /** `prefix*` segments by prefix, and the lengths those prefixes have (a segment looks up only its own prefixes). */
  prefixes?: Map<string, Node>;
  prefixLengths?: number[];
  /** Rules whose pattern ends here with a rest capture (`:name*`, `:name+`, `*`). */
  rest?: Array<{ rule: number; min: 0 | 1 }>;
  /** The first rule whose pattern ends exactly here. */
  end?: number;
  /** The smallest rule index anywhere below (pruning: a walk never enters a subtree that cannot win). */
  min: number;
}

const newNode = (): Node => ({ min: Infinity });

/** The segments of a path, decoded, without empty ones (`/a/b/` → `["a", "b"]`). */
function segmentsOf(pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  return pathname.includes('%') ? segments.map(decodeSegment) : segments;
}

export class RedirectTable {
  private readonly root = newNode();
  private readonly captures: Capture[][] = [];
  readonly size: number;
  private readonly notFoundToHome: boolean;

  constructor(rules: RedirectRule[], options: { notFoundToHome?: boolean } = {}) {
    this.rules = rules;
    this.size = rules.length;
    this.notFoundToHome = options.notFoundToHome ?? false;
    rules.forEach((rule, index) => this.add(rule, index));
  }

  private readonly rules: RedirectRule[];

  private add(rule: RedirectRule, index: number): void {
    if (redirectSourceProblem(rule.source)) return;
    const captures: Capture[] = [];
    let node = this.root;
    const trail = [node];
    const segments = rule.source.split('/').filter(Boolean);
    for (const raw of segments) {
      const rest = /^:([A-Za-z_][A-Za-z0-9_]*)([*+])$/.exec(raw);
      if (rest || raw === '*') {
        captures.push({ name: rest?.[1], rest: true });
        (node.rest ??= []).push({ rule: index, min: rest?.[2] === '*' ? 0 : 1 });
        this.captures[index] = captures;
        for (const n of trail) n.min = Math.min(n.min, index);
        return;
      }
      const param = /^:([A-Za-z_][A-Za-z0-9_]*)$/.exec(raw);
      if (param) {
        captures.push({ name: param[1], rest: false });
        node = node.param ??= newNode();
      } else if (raw.endsWith('*')) {
        const prefix = decodeSegment(raw.slice(0, -1));
        captures.push({ rest: false });
        const prefixes = (node.prefixes ??= new Map());
        let next = prefixes.get(prefix);
        if (!next) {
          prefixes.set(prefix, (next = newNode()));
          const lengths = (node.prefixLengths ??= []);
          if (!lengths.includes(prefix.length)) lengths.push(prefix.length);
        }
        node = next;
      } else {
        const literal = decodeSegment(raw);
        const literals = (node.literal ??= new Map());
        let next = literals.get(literal);
        if (!next) literals.set(literal, (next = newNode()));
        node = next;
      }
      trail.push(node);
    }
    if (node.end === undefined) node.end = index;
    this.captures[index] = captures;
    for (const n of trail) n.min = Math.min(n.min, index);
  }

  /**
   * The redirect for a request path (`/old/page`, as sent) and its query (`?a=1` or ''), or
   * undefined. A rule whose destination is the request itself is skipped, so no rule loops on itself.
   */
  match(pathname: string, search = ''): RedirectAnswer | undefined {
    if (this.size === 0) return undefined;
    const segments = segmentsOf(pathname);
    let best = Infinity;
    let bestValues: Array<string | string[]> = [];
    const walk = (node: Node, i: number, values: Array<string | string[]>) => {
      if (node.min >= best) return;
      for (const r of node.rest ?? []) {
        if (r.rule < best && segments.length - i >= r.min) {
          best = r.rule;
          bestValues = [...values, segments.slice(i)];
        }
      }
      if (i === segments.length) {
        if (node.end !== undefined && node.end < best) {
          best = node.end;
          bestValues = values;
        }
        return;
      }
      const segment = segments[i]!;
      const literal = node.literal?.get(segment);
      if (literal) walk(literal, i + 1, values);
      if (node.param) walk(node.param, i + 1, [...values, segment]);
      for (const length of node.prefixLengths ?? []) {
        const next = length <= segment.length ? node.prefixes!.get(segment.slice(0, length)) : undefined;
        if (next) walk(next, i + 1, [...values, segment.slice(length)]);
      }
    };
    walk(this.root, 0, []);
    if (best === Infinity) return undefined;
    const rule = this.rules[best]!;
    const location = destinationOf(rule.destination, this.captures[best]!, bestValues, search);
    if (!/^https?:/.test(location) && sameResource(location, pathname, search)) return undefined;
    return { status: rule.permanent === false ? 307 : 308, location };
  }

  /** docs.json `errors.404.redirect`: a path with no page goes to the home page. */
  notFound(pathname: string): RedirectAnswer | undefined {
    if (!this.notFoundToHome || pathname === '/') return undefined;
    return { status: 307, location: '/' };
  }
}

/**
 * The table of a stored redirects file (REDIRECTS_FILE, its text), or an empty table when the
 * file is not valid: it is Folio's own, written after the build, but in a directory the build
 * could write, so it is checked again, its size bounds (REDIRECT_LIMITS) included.
 */
export function redirectTableOf(text: string | undefined): RedirectTable {
  try {
    const parsed = text ? redirectsFileSchema.safeParse(JSON.parse(text)) : undefined;
    if (parsed?.success) return new RedirectTable(parsed.data.rules, { notFoundToHome: parsed.data.notFoundToHome });
  } catch {
    // not JSON: no redirects
  }
  return new RedirectTable([]);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const encodeValue = (v: string | string[]) => (typeof v === 'string' ? encodeURIComponent(v) : v.map(encodeURIComponent).join('/'));

/**
 * The destination with captured values put in (each segment percent-encoded, so a value can never
 * add a scheme, a host or a `//`), and the request's query when the destination has none.
 */
function destinationOf(destination: string, captures: Capture[], values: Array<string | string[]>, search: string): string {
  const byName = new Map<string, string | string[]>();
  const stars: Array<string | string[]> = [];
  captures.forEach((c, i) => {
    if (c.name) byName.set(c.name, values[i] ?? '');
    else stars.push(values[i] ?? '');
  });
  const absolute = /^https?:\/\/[^/?#]*/.exec(destination)?.[0] ?? '';
  const rest = destination.slice(absolute.length);
  let star = 0;
  let filled = rest.replace(/:([A-Za-z_][A-Za-z0-9_]*)[*+]?|\*/g, (whole, name: string | undefined) => {
    if (name === undefined) return star < stars.length ? encodeValue(stars[star++]!) : '';
    const value = byName.get(name);
    return value === undefined ? whole : encodeValue(value);
  });
  // An empty capture must not leave `//` (a path starting with `//` names another host).
  const cut = filled.search(/[?#]/);
  const pathPart = cut < 0 ? filled : filled.slice(0, cut);
  filled = pathPart.replace(/\/{2,}/g, '/') + (cut < 0 ? '' : filled.slice(cut));
  if (!absolute && !filled.startsWith('/')) filled = `/${filled}`;
  const withQuery = search && !filled.includes('?') ? (filled.includes('#') ? filled.replace('#', `${search}#`) : filled + search) : filled;
  return absolute + withQuery;
}

function sameResource(location: string, pathname: string, search: string): boolean {
  const strip = (p: string) => p.replace(/#.*$/, '').replace(/\/+(?=\?|$)/, '') || '/';
  return strip(location) === strip(pathname + search);
}

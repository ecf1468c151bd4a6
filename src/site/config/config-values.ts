// The values of site files (docs.json, mint.json): colours, paths, links, icons, redirect rules,
// and how a file is validated: invalid values of supported keys are errors naming
// `file:line:col`, keys the schema does not know are warnings (docs/decisions.md#docsjson).
import { z } from 'zod';
import { jsonLocations, positionOf } from './json-locations.ts';
import { MODULE_QUERY } from '../layout.ts';

// ---------------------------------------------------------------------------------------------
// Values

export const cssColor = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[#a-zA-Z0-9(),.%\s/-]+$/, 'must be a CSS colour such as "#16a34a" or "rgb(22 163 74)"');

/** A colour for both modes, or separate light and dark values. */
export const themeColor = z.union([cssColor, z.object({ light: cssColor, dark: cssColor })], {
  error: 'must be a CSS colour such as "#16a34a", or {"light": colour, "dark": colour}',
});

/** Light and dark values, either optional (Mintlify's anchor and background colours). */
export const modeColors = z.object({ light: cssColor.optional(), dark: cssColor.optional() });

/**
 * A page of the navigation: any name a page file may have (`guides/démarrage`, `faq (old)`), as in
 * Mintlify; it is only looked up among the pages (whose addresses come from their files), never
 * put into a link as written.
 */
export const pagePath = z
  .string()
  .max(500)
  .refine((p) => !MODULE_QUERY.test(p), 'must be a page path such as "guides/install", without "?", "#", "%" or "\\" (no page file has them)')
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

export const assetPath = z
  .string()
  .min(1)
  .max(500)
  .regex(/^(?:https?:\/\/[^\s"'<>\\]+|[^\s"'<>:\\]+)$/, 'must be a path such as "/logo.svg" or an http(s) URL');

/**
 * Where a link goes: an http(s) or mailto URL, a path on the site (`/quickstart`, `#part`), or a
 * page path (`quickstart`). Never `javascript:` or another scheme.
 */
export const linkHref = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .regex(/^(?:https?:\/\/[^\s"'<>\\]+|mailto:[^\s"'<>\\]+|[^\s"'<>:\\]+)$/, 'must be an http(s) URL, a mailto: address or a path such as "/quickstart"');

export const label = (max = 200) => z.string().trim().min(1).max(max);

/**
 * An icon: a name from an icon set (`rocket`, `book-open`), a path or an http(s) URL of an image.
 * Mintlify's `{name, style, library}` form counts as its name.
 */
export const icon = z
  .union([
    z.string().trim().min(1).max(300),
    z.object({ name: z.string().trim().min(1).max(100), style: z.string().optional(), library: z.string().optional() }).transform((i) => i.name),
  ])
  .pipe(z.string().regex(/^(?:https?:\/\/[^\s"'<>\\]+|[^\s"'<>:\\]+)$/, 'must be an icon name such as "rocket", a path or an http(s) URL'));

/** Why a redirect source cannot be matched (a rest capture before the end, a bad parameter), if it cannot. */
export function redirectSourceProblem(source: string): string | undefined {
  const segments = source.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if (/^:[A-Za-z_][A-Za-z0-9_]*[*+]$/.test(s) || s === '*') {
      if (!last) return `"${s}" matches the rest of the path, so it must be the last segment`;
      continue;
    }
    if (/^:[A-Za-z_][A-Za-z0-9_]*$/.test(s)) continue;
    if (s.startsWith(':')) return `"${s}" is not a parameter such as ":slug" or ":slug*"`;
    if (s.indexOf('*') !== -1 && s.indexOf('*') !== s.length - 1) return `"${s}": "*" may only end a segment`;
  }
  return undefined;
}

export const redirectRule = z.object({
  source: z
    .string()
    .max(1000)
    .regex(/^\/[^\s?#\\]*$/, 'must be a path starting with "/", without "?" or "#", such as "/old/:slug*"')
    .superRefine((source, ctx) => {
      const problem = redirectSourceProblem(source);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  destination: z
    .string()
    .max(2000)
    .regex(/^(?:https?:\/\/[^\s"'<>\\/:*]+(?::\d+)?(?:[/?#][^\s"'<>\\]*)?|\/(?!\/)[^\s\\]*)$/, 'must be a path starting with "/" (not "//") or an http(s) URL whose host has no ":param" or "*"'),
  permanent: z.boolean().optional(),
});
export type RedirectRule = z.infer<typeof redirectRule>;

/**
 * A path as a browser sends it: characters a URL path cannot hold as they are (spaces, quotes,
 * `<>{}` and backquotes, controls, anything beyond ASCII) percent-encoded as UTF-8, `%` and the
 * rest kept (the WHATWG URL standard's path percent-encode set, without `?` and `#`, which end a path).
 */
export function encodeAsSent(p: string): string {
  let out = '';
  for (const c of p) {
    const code = c.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f && !'"<>`{}'.includes(c)) out += c;
    else out += code >= 0xd800 && code <= 0xdfff ? '%EF%BF%BD' : encodeURIComponent(c);
  }
  return out;
}

/** A redirect source as Mintlify reads it: `/` added in front, `#…` and `?…` cut (warned about: redirectWarnings), `\` read as `/` as browsers do. */
export const redirectSourceAsSent = (source: string) => {
  const path = source.trim().replace(/[?#].*$/s, '').replaceAll('\\', '/');
  return encodeAsSent(path.startsWith('/') ? path : `/${path}`);
};

/**
 * A redirect destination as Mintlify reads it: a page path without `/` in front gets one, and its
 * characters are percent-encoded as a browser would send them (the host of a URL stays as written).
 * A `\` is left for the schema to refuse: browsers read `/\host` as `//host`, another site.
 */
export const redirectDestinationAsSent = (destination: string) => {
  const d = destination.trim();
  const url = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is.exec(d);
  if (url) return url[1] + encodeAsSent(url[2]!);
  if (/^[a-z][a-z0-9+.-]*:/i.test(d) || d.startsWith('/')) return encodeAsSent(d);
  return encodeAsSent(`/${d}`);
};

/** A redirect rule of docs.json or mint.json: normalized as Mintlify reads it, then held to the rules of a stored one. */
export const siteFileRedirectRule = z.object({
  source: z.string().max(1000).transform(redirectSourceAsSent).pipe(redirectRule.shape.source),
  destination: z.string().max(2000).transform(redirectDestinationAsSent).pipe(redirectRule.shape.destination),
  permanent: z.boolean().optional(),
});

/**
 * What normalizing `redirects` dropped, as warnings: a `#fragment` (never sent by a browser, so the
 * rule matches the path alone), and rules whose source has a `?query` (a rule matches a path, never
 * a query, so the rule could not do what it says: it is left out). Answers the rules kept.
 */
export function redirectWarnings(raw: unknown, rules: RedirectRule[] | undefined, locate: Locate): { rules: RedirectRule[] | undefined; warnings: DocsConfigIssue[] } {
  if (!rules || !Array.isArray(raw)) return { rules, warnings: [] };
  const warnings: DocsConfigIssue[] = [];
  const kept = rules.filter((rule, i) => {
    const source = (raw[i] as { source?: unknown } | undefined)?.source;
    if (typeof source !== 'string') return true;
    const at = locate(['redirects', i, 'source']);
    const query = /\?.*$/s.exec(source.replace(/#.*$/s, ''))?.[0];
    if (query) {
      warnings.push({ ...at, message: `ignored: a redirect matches a path, never a query such as "${query.slice(0, 80)}", so this rule is left out` });
      return false;
    }
    const fragment = /#.*$/s.exec(source)?.[0];
    if (fragment) warnings.push({ ...at, message: `"${fragment.slice(0, 80)}" dropped: browsers never send the #fragment of an address, so the rule matches "${rule.source}"` });
    return true;
  });
  return { rules: kept, warnings };
}

// ---------------------------------------------------------------------------------------------
// Problems and warnings

/** One problem (or warning) of a site file, with the key it is about and where that key is. */
export interface DocsConfigIssue {
  /** The file, as the content root names it: `docs.json` or `mint.json`. */
  file: string;
  key: string;
  message: string;
  line: number;
  column: number;
}

export const formatConfigIssue = (i: DocsConfigIssue) => `${i.file}:${i.line}:${i.column}: ${i.key ? `${i.key}: ` : ''}${i.message}`;

export class DocsConfigError extends Error {
  override name = 'DocsConfigError';
  readonly issues: DocsConfigIssue[];
  constructor(issues: DocsConfigIssue[]) {
    super(issues.map(formatConfigIssue).join('\n'));
    this.issues = issues;
  }
}


/** Keys Mintlify defines that Folio knows and ignores for now: their warning says so. */
export const KNOWN_UNSUPPORTED = new Set(['icons', 'integrations', 'interaction', 'metadata', 'styling', 'thumbnails', 'variables', 'asyncapi']);

/**
 * Largest site file (docs.json, mint.json, a file one references) read, in characters: far above
 * any real one. A repository's docs.json is parsed on the server's event loop (reads through the
 * API, every deployment), so its size bounds that work.
 */
export const MAX_SITE_FILE_CHARS = 4 * 1024 * 1024;

/** Throws DocsConfigError for a site file over MAX_SITE_FILE_CHARS, which is never parsed. */
export function refuseTooLarge(text: string, file: string): void {
  if (text.length > MAX_SITE_FILE_CHARS) {
    throw new DocsConfigError([{ file, key: '(top level)', message: `larger than ${MAX_SITE_FILE_CHARS / 1024 / 1024} MiB: a site file may be at most that large`, line: 1, column: 1 }]);
  }
}

/** JSON.parse with the contract's message: line and column of the syntax error. */
export function parseJsonText(text: string, file: string): unknown {
  refuseTooLarge(text, file);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /line (\d+) column (\d+)/.exec(message);
    throw new DocsConfigError([{ file, key: '', message: `not valid JSON (${message})`, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1) }]);
  }
}

/** Where a key path of a validated value was written: its file, its key there, line and column. */
export type Locate = (keyPath: readonly PropertyKey[]) => Omit<DocsConfigIssue, 'message'>;

/** Locates key paths of `text` itself (the file read as it is). */
export function locateInText(text: string, file: string): Locate {
  let locations: ReturnType<typeof jsonLocations> | undefined;
  return (keyPath) => ({ file, key: keyPath.length ? keyPath.map(String).join('.') : '(top level)', ...positionOf((locations ??= jsonLocations(text)), keyPath) });
}

/**
 * Validates `raw` (a site file, parsed) with `schema`: throws DocsConfigError for invalid values of
 * supported keys (with `problems` already found, such as references that could not be read), and
 * answers the value with a warning per key the schema does not know. Key paths for which `quiet`
 * holds are not reported (a reference that failed: its own problem says why).
 */
export function validateSiteFile<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  locate: Locate,
  options: { problems?: DocsConfigIssue[]; quiet?: (keyPath: readonly PropertyKey[]) => boolean } = {},
): { value: T; warnings: DocsConfigIssue[] } {
  const quiet = options.quiet ?? (() => false);
  const result = schema.safeParse(raw);
  const problems = [...(options.problems ?? [])];
  if (!result.success) {
    const issues = result.error.issues.filter((issue) => !quiet(issue.path));
    for (const issue of issues.slice(0, MAX_LISTED_PROBLEMS)) problems.push({ ...locate(issue.path), message: issue.message });
    if (issues.length > MAX_LISTED_PROBLEMS) problems.push({ ...locate([]), message: `and ${issues.length - MAX_LISTED_PROBLEMS} more problems, not listed` });
  }
  if (problems.length || !result.success) throw new DocsConfigError(problems);
  const unknown = unknownKeys(raw, result.data, []).filter((keyPath) => !quiet(keyPath));
  const warnings = unknown.slice(0, MAX_LISTED_WARNINGS).map((keyPath): DocsConfigIssue => {
    const name = String(keyPath.at(-1));
    const why = keyPath.length === 1 && KNOWN_UNSUPPORTED.has(name) ? 'not supported by Folio yet: ignored' : 'unknown key: ignored';
    return { ...locate(keyPath), message: why };
  });
  if (unknown.length > MAX_LISTED_WARNINGS) warnings.push({ ...locate([]), message: `and ${unknown.length - MAX_LISTED_WARNINGS} more unknown keys, not listed: ignored` });
  return { value: result.data, warnings };
}

/**
 * Problems and warnings of one site file that are located and listed: a tenant's file may have
 * hundreds of thousands, and each is placed in the text on the server's event loop (a 3.6 MB
 * docs.json with 300,000 invalid groups held it 14 s). The rest are counted in one more line.
 */
export const MAX_LISTED_PROBLEMS = 100;
export const MAX_LISTED_WARNINGS = 1000;

/** Key paths present in `raw` but not in `parsed` (what a stripping schema dropped). */
function unknownKeys(raw: unknown, parsed: unknown, at: PropertyKey[]): PropertyKey[][] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((item, i) => unknownKeys(item, parsed[i], [...at, i]));
  if (!isObject(raw) || !isObject(parsed)) return [];
  return Object.keys(raw).flatMap((key) => (key in parsed ? unknownKeys(raw[key], parsed[key], [...at, key]) : [[...at, key]]));
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


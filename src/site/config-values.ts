// The values of site files (docs.json, mint.json): colours, paths, links, icons, redirect rules,
// and how a file is validated: invalid values of supported keys are errors naming
// `file:line:col`, keys the schema does not know are warnings (docs/decisions.md#docsjson).
import { z } from 'zod';
import { jsonLocations, positionOf } from './json-locations.ts';

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

export const pagePath = z
  .string()
  .max(500)
  .regex(/^[A-Za-z0-9_./-]*$/, 'must be a page path such as "guides/install"')
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
export const KNOWN_UNSUPPORTED = new Set(['contextual', 'icons', 'integrations', 'interaction', 'metadata', 'styling', 'thumbnails', 'variables', 'asyncapi']);

/** JSON.parse with the contract's message: line and column of the syntax error. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /line (\d+) column (\d+)/.exec(message);
    throw new DocsConfigError([{ file, key: '', message: `not valid JSON (${message})`, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1) }]);
  }
}

/**
 * Validates `raw` (the parsed text of `file`) with `schema`: throws DocsConfigError for invalid
 * values of supported keys, and answers the value with a warning per key the schema does not know.
 */
export function validateSiteFile<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  text: string,
  file: string,
  /** From a key path of `raw` to the same key in the text, when `raw` was reshaped before validation. */
  asWritten: (keyPath: PropertyKey[]) => PropertyKey[] = (keyPath) => keyPath,
): { value: T; warnings: DocsConfigIssue[] } {
  const result = schema.safeParse(raw);
  let locations: ReturnType<typeof jsonLocations> | undefined;
  const at = (keyPath: readonly PropertyKey[]) => positionOf((locations ??= jsonLocations(text)), keyPath);
  if (!result.success) {
    throw new DocsConfigError(
      result.error.issues.map((issue) => {
        const keyPath = asWritten(issue.path);
        return { file, key: keyPath.length ? keyPath.map(String).join('.') : '(top level)', message: issue.message, ...at(keyPath) };
      }),
    );
  }
  const warnings = unknownKeys(raw, result.data, []).map(asWritten).map((keyPath): DocsConfigIssue => {
    const name = String(keyPath.at(-1));
    const why = keyPath.length === 1 && KNOWN_UNSUPPORTED.has(name) ? 'not supported by Folio yet: ignored' : 'unknown key: ignored';
    return { file, key: keyPath.map(String).join('.'), message: why, ...at(keyPath) };
  });
  return { value: result.data, warnings };
}

/** Key paths present in `raw` but not in `parsed` (what a stripping schema dropped). */
function unknownKeys(raw: unknown, parsed: unknown, at: PropertyKey[]): PropertyKey[][] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((item, i) => unknownKeys(item, parsed[i], [...at, i]));
  if (!isObject(raw) || !isObject(parsed)) return [];
  return Object.keys(raw).flatMap((key) => (key in parsed ? unknownKeys(raw[key], parsed[key], [...at, key]) : [[...at, key]]));
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


// docs.json: the site configuration of a content root (a subset compatible with Mintlify's),
// validated by one schema. Errors name the key: `docs.json: colors.primary: …`.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const cssColor = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[#a-zA-Z0-9(),.%\s/-]+$/, 'must be a CSS colour such as "#16a34a" or "rgb(22 163 74)"');

/** A colour for both modes, or separate light and dark values. */
const themeColor = z.union([cssColor, z.strictObject({ light: cssColor, dark: cssColor })], {
  error: 'must be a CSS colour such as "#16a34a", or {"light": colour, "dark": colour}',
});

const pagePath = z
  .string()
  .regex(/^[A-Za-z0-9_./-]*$/, 'must be a page path such as "guides/install"')
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

/**
 * Where OpenAPI pages come from (docs/decisions.md#openapi-reference-pages): a file of the content
 * root, several, or `{source, directory}` (`directory` is the path prefix of the generated pages).
 */
const openApiFile = z.string().min(1).max(500);
export const openApiSource = z.union([
  openApiFile,
  z.array(openApiFile),
  z.looseObject({ source: openApiFile, directory: z.string().max(200).regex(/^[A-Za-z0-9_./-]*$/, 'must be a folder such as "api-reference"').optional() }),
], { error: 'must be a file such as "openapi.yaml", a list of files, or {"source": file, "directory": folder}' });
export type OpenApiSourceConfig = z.infer<typeof openApiSource>;

export interface NavGroupConfig {
  group: string;
  pages: Array<string | NavGroupConfig>;
  /** OpenAPI file whose operations fill this group (Mintlify's `openapi` on navigation entries). */
  openapi?: OpenApiSourceConfig;
}

// `pages` may name operations ("GET /users", "WEBHOOK user.created") when the group has `openapi`.
const navPage = z.union([pagePath, z.string().regex(/^(?:\S+\s+)?(?:GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE|WEBHOOK)\s+\S.*$/i)], {
  error: 'must be a page path such as "guides/install", or an operation such as "GET /users"',
});

const navGroup: z.ZodType<NavGroupConfig> = z.lazy(() =>
  z.strictObject({ group: z.string().min(1), pages: z.array(z.union([navPage, navGroup])).default([]), openapi: openApiSource.optional() }),
);

const assetPath = z
  .string()
  .min(1)
  .max(500)
  .regex(/^(?:https?:\/\/[^\s"'<>]+|[^\s"'<>:]+)$/, 'must be a path such as "/logo.svg" or an http(s) URL');

export const docsConfigSchema = z.looseObject({
  $schema: z.string().optional(),
  name: z.string().min(1).max(120).optional(),
  description: z.string().max(500).optional(),
  logo: z
    .union([assetPath, z.strictObject({ light: assetPath, dark: assetPath })], {
      error: 'must be a path such as "/logo.svg", an http(s) URL, or {"light": …, "dark": …}',
    })
    .optional(),
  favicon: assetPath.optional(),
  colors: z
    .strictObject({
      primary: themeColor.optional(),
      success: themeColor.optional(),
      info: themeColor.optional(),
      warning: themeColor.optional(),
      danger: themeColor.optional(),
      muted: themeColor.optional(),
    })
    .optional(),
  // `{"groups": […]}` (Mintlify's newer form) is read as the list itself, so a problem inside a
  // group is named by its own key rather than hidden behind "neither form matched".
  navigation: z
    .preprocess(
      (n) => (typeof n === 'object' && n !== null && !Array.isArray(n) && Object.keys(n).length === 1 && 'groups' in n ? (n as { groups: unknown }).groups : n),
      z.array(navGroup, 'must be a list of groups such as [{"group": "Start", "pages": ["index"]}]'),
    )
    .optional(),
  openapi: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  // Mintlify's `api` settings that Folio uses (docs/decisions.md#openapi-reference-pages).
  api: z
    .looseObject({
      openapi: openApiSource.optional(),
      playground: z.looseObject({ display: z.enum(['interactive', 'simple', 'none'], 'must be "interactive", "simple" or "none"').optional() }).optional(),
      examples: z
        .looseObject({
          languages: z.array(z.string().min(1).max(40)).optional(),
          defaults: z.enum(['required', 'all'], 'must be "required" or "all"').optional(),
        })
        .optional(),
    })
    .optional(),
});

export type DocsConfig = z.infer<typeof docsConfigSchema>;

/** The theme token each docs.json colour sets. */
export const colorTokens = {
  primary: '--docs-primary',
  success: '--docs-success',
  info: '--docs-info',
  warning: '--docs-warning',
  danger: '--docs-danger',
  muted: '--docs-fg-muted',
} as const;

/** One problem of a docs.json, with the key it is about and where that key is in the file. */
export interface DocsConfigIssue {
  key: string;
  message: string;
  line: number;
  column: number;
}

export class DocsConfigError extends Error {
  override name = 'DocsConfigError';
  readonly issues: DocsConfigIssue[];
  constructor(issues: DocsConfigIssue[]) {
    super(issues.map((i) => `docs.json: ${i.key ? `${i.key}: ` : ''}${i.message}`).join('\n'));
    this.issues = issues;
  }
}

/** Parses docs.json text; throws DocsConfigError naming the key and the reason. */
export function parseDocsConfig(text: string): DocsConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /line (\d+) column (\d+)/.exec(message);
    throw new DocsConfigError([{ key: '', message: `not valid JSON (${message})`, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1) }]);
  }
  const result = docsConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new DocsConfigError(
    result.error.issues.map((issue) => ({
      key: issue.path.length ? issue.path.map(String).join('.') : '(top level)',
      message: issue.message,
      ...locateKey(text, issue.path),
    })),
  );
}

/**
 * Where a key path points in the JSON text: the last of its object keys found in order, as
 * `"key":`. Good enough for messages; array positions are not counted.
 */
function locateKey(text: string, keyPath: PropertyKey[]): { line: number; column: number } {
  let offset = 0;
  let found = -1;
  for (const key of keyPath) {
    if (typeof key !== 'string') continue;
    const match = new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:`).exec(text.slice(offset));
    if (!match) break;
    found = offset + match.index;
    offset = found + match[0].length;
  }
  if (found < 0) return { line: 1, column: 1 };
  const before = text.slice(0, found);
  return { line: before.split('\n').length, column: found - before.lastIndexOf('\n') };
}

/**
 * Reads `<contentRoot>/docs.json` (optional: an empty config when absent). Called once per build,
 * by the site integration (settings.ts): the build's code gets the result, never re-reads the file.
 */
export function loadDocsConfig(contentRoot: string): DocsConfig {
  const file = path.join(contentRoot, 'docs.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return parseDocsConfig(text);
}

/** CSS that puts docs.json colours onto the theme tokens, for light and dark mode. */
export function themeOverrideCss(config: DocsConfig): string {
  const light: string[] = [];
  const dark: string[] = [];
  for (const [key, token] of Object.entries(colorTokens)) {
    const value = config.colors?.[key as keyof typeof colorTokens];
    if (!value) continue;
    light.push(`${token}:${typeof value === 'string' ? value : value.light}`);
    dark.push(`${token}:${typeof value === 'string' ? value : value.dark}`);
  }
  if (!light.length) return '';
  // `html:root` outranks the theme's `:root` rules whatever order the stylesheets load in.
  return `html:root{${light.join(';')}}html:root[data-theme=dark]{${dark.join(';')}}`;
}

/** An OpenAPI path of docs.json relative to the content root: a leading "/" or "./" means the root, as in Mintlify's docs.json. */
export function openApiRelativePath(openapiPath: string): string {
  return openapiPath.replace(/^(\.?\/)+/, '');
}

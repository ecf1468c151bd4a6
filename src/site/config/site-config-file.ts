// The site file of a content root (docs.json, or mint.json without it): found, read, parsed by the
// parser of its kind, and kept until it or a file it references changes. Apart from docs-config.ts so
// that mint.json's parser, which maps onto docs.json's model, imports that model without a circle.
import fs from 'node:fs';
import path from 'node:path';
import { parseDocsJson, type DocsConfig, type ParsedDocsConfig } from './docs-config.ts';
import { parseMintJson } from './mint-config.ts';


/** The site files a content root may have, in the order they are looked for: mint.json only without docs.json. */
export const SITE_CONFIG_FILES = ['docs.json', 'mint.json'] as const;
export type SiteConfigFile = (typeof SITE_CONFIG_FILES)[number];

/** A parsed site file, and the modification times of the files it was read from (itself first). */
const loaded = new Map<string, { mtimes: Array<[string, number]>; parsed: ParsedDocsConfig }>();

/** Which site file of `contentRoot` configures the site, if any. */
export function siteConfigFile(contentRoot: string): { file: SiteConfigFile; abs: string; mtimeMs: number } | undefined {
  for (const file of SITE_CONFIG_FILES) {
    const abs = path.join(contentRoot, file);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (stat) return { file, abs, mtimeMs: stat.mtimeMs };
  }
  return undefined;
}

/** Parses the text of one of the site files of the content root `root` (docs.json's `$ref`s are read from it). */
export function parseSiteConfigText(file: SiteConfigFile, text: string, root?: string): ParsedDocsConfig {
  return file === 'docs.json' ? parseDocsJson(text, root) : parseMintJson(text);
}

/** Reads the site configuration with its warnings (re-read only when it or a file it references changes); empty without a file. */
export function loadDocsConfigWithWarnings(contentRoot: string): ParsedDocsConfig {
  const found = siteConfigFile(contentRoot);
  if (!found) return { config: {}, warnings: [] };
  const hit = loaded.get(found.abs);
  const mtimeOf = (abs: string) => fs.statSync(abs, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (hit && hit.mtimes.every(([abs, mtimeMs]) => mtimeOf(abs) === mtimeMs)) return hit.parsed;
  const text = fs.readFileSync(found.abs, 'utf8');
  const parsed = parseSiteConfigText(found.file, text, contentRoot);
  const mtimes: Array<[string, number]> = [[found.abs, found.mtimeMs], ...(parsed.files ?? []).map((f): [string, number] => [path.join(contentRoot, f), mtimeOf(path.join(contentRoot, f))])];
  loaded.set(found.abs, { mtimes, parsed });
  return parsed;
}

/** Reads `<contentRoot>/docs.json` (or mint.json; an empty config when neither exists). */
export function loadDocsConfig(contentRoot: string): DocsConfig {
  return loadDocsConfigWithWarnings(contentRoot).config;
}

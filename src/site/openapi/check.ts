// The OpenAPI part of the content check before a build (src/site/content-check/check-root.ts):
// every spec a site uses is loaded and validated, and every `openapi:` frontmatter must name an
// operation that exists, so a broken document fails here, before Astro starts, naming the line
// and column in the author's file. Runs in a child process of its own (check-process.ts), never
// on the server's event loop: a large document takes seconds to validate.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { Problem } from '../content-check/check-content.ts';
import { parseDocsConfig } from '../config/docs-config.ts';
import { OpenApiError } from './errors.ts';
import { generatedPagePaths } from './index.ts';
import { discoverSpecFiles, docsJsonSources, findReferencedSpec, navigationSources, parseOperationReference, specLoader, unreadableReference } from './sources.ts';

export interface OpenApiCheck {
  problems: Problem[];
  /** A spec read more leniently than written (file ''), a page's `openapi:` resolved elsewhere or not at all. */
  warnings: Problem[];
  /** Digests of the documents that passed as written (load.ts): the build does not validate them again. */
  checked: string[];
  /**
   * Paths of the pages the build generates from the files docs.json names (index.ts
   * generatedPagePaths), for the link check; undefined when a file cannot be read.
   */
  generated?: string[];
}

/** Checks the specs of the content root at `root`; `pages` are its page files, relative to it. */
export async function checkOpenApi(root: string, pages: string[]): Promise<OpenApiCheck> {
  const problems: Problem[] = [];
  const warnings = new Set<string>();
  const pageWarnings: Problem[] = [];
  const checked = new Set<string>();
  const text = await readFile(path.join(root, 'docs.json'), 'utf8').catch(() => undefined);
  let config;
  try {
    config = text === undefined ? {} : parseDocsConfig(text, root);
  } catch {
    // docs.json problems are reported by the root check; the specs the pages name and those of the
    // root are still checked, so that one run reports every problem.
    config = {};
  }
  // Validation only: the build resolves $refs itself; operations are found in the file as written.
  const load = specLoader(root, { validateOnly: true });
  const named = [...docsJsonSources(config), ...navigationSources(config).map((n) => n.source)].flatMap((source) => source.files);
  let discovered: Promise<string[]> | undefined;
  const candidates = () => (discovered ??= discoverSpecFiles(root).then((found) => [...new Set([...named, ...found])]));
  const reported = new Set<string>();
  const report = (error: unknown, fallback: Problem) => {
    if (!(error instanceof OpenApiError)) throw error;
    if (reported.has(error.message)) return;
    reported.add(error.message);
    problems.push({ ...fallback, ...located(error), message: error.message });
  };
  for (const file of named) {
    try {
      const loaded = await load(file);
      for (const warning of loaded.warnings) warnings.add(warning);
      if (loaded.digest) checked.add(loaded.digest);
    } catch (error) {
      report(error, { file: 'docs.json', ...whereNamed(text ?? '', file), message: '' });
    }
  }
  for (const page of pages) {
    const reference = await frontmatterReference(root, page);
    if (!reference) continue;
    const at = { file: page, line: reference.line, column: 1 };
    const parsed = parseOperationReference(reference.value);
    if (!parsed) {
      pageWarnings.push({ ...at, message: unreadableReference(reference.value) });
      continue;
    }
    try {
      const { loaded, warning } = await findReferencedSpec(parsed, page, candidates, load);
      if (warning) pageWarnings.push({ ...at, message: warning });
      for (const w of loaded?.warnings ?? []) warnings.add(w);
      if (loaded?.digest) checked.add(loaded.digest);
    } catch (error) {
      report(error, { ...at, message: '' });
    }
  }
  // Read as the build reads them (resolved, not validated again), for the addresses of their pages.
  const generated = await generatedPagePaths(root, config, specLoader(root, { checked })).catch(() => undefined);
  return { problems, warnings: [...[...warnings].map((message) => ({ file: '', line: 0, column: 0, message })), ...pageWarnings], checked: [...checked], ...(generated ? { generated } : {}) };
}

/** Line and column of the first place docs.json names `file` (as a JSON string), else its start. */
function whereNamed(text: string, file: string): { line: number; column: number } {
  const at = text.indexOf(JSON.stringify(file));
  if (at < 0) return { line: 1, column: 1 };
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** `file:line:column` of the first place the message names, as a Problem's location. */
function located(error: OpenApiError): Partial<Problem> {
  const escaped = error.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(error.message);
  if (!at) return {};
  return { file: error.file, line: Number(at[1]), column: Number(at[2]) };
}

/**
 * A page's frontmatter when it has an `openapi:` key: only such a page is checked against the
 * specs (the content check skips the OpenAPI check when no page has one and docs.json names none).
 */
export function openApiFrontmatter(text: string): string | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  return match && /^openapi\s*:/m.test(match[1]) ? match[1] : undefined;
}

/** The `openapi:` value of a page's frontmatter and its line, if it has one. */
async function frontmatterReference(root: string, page: string): Promise<{ value: string; line: number } | undefined> {
  const frontmatter = openApiFrontmatter(await readFile(path.join(root, page), 'utf8').catch(() => ''));
  if (frontmatter === undefined) return undefined;
  let data: unknown;
  try {
    data = parseYaml(frontmatter);
  } catch {
    return undefined; // the page check reports bad frontmatter
  }
  const value = (data as { openapi?: unknown } | null)?.openapi;
  if (value === undefined) return undefined;
  const line = frontmatter.split(/\r?\n/).findIndex((l) => /^openapi\s*:/.test(l)) + 2;
  return { value: String(value), line };
}

const CHECK_PROCESS = fileURLToPath(new URL('./check-process.ts', import.meta.url));
/** However large the documents, the check ends within this time. */
const CHECK_TIMEOUT_MS = 120_000;

/** `checkOpenApi` in a child process at low priority. */
export function checkOpenApiIsolated(root: string, pages: string[]): Promise<OpenApiCheck> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [CHECK_PROCESS, root],
      { timeout: CHECK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { PATH: process.env.PATH ?? '' } },
      (error, stdout) => {
        if (error && 'killed' in error && error.killed) {
          resolve({ problems: [{ file: 'docs.json', line: 1, column: 1, message: `the OpenAPI files took longer than ${CHECK_TIMEOUT_MS / 1000} s to check` }], warnings: [], checked: [] });
          return;
        }
        try {
          resolve(JSON.parse(stdout) as OpenApiCheck);
        } catch {
          reject(error ?? new Error('the OpenAPI check gave no answer'));
        }
      },
    );
    if (child.pid) os.setPriority(child.pid, 10);
    child.stdin?.end(JSON.stringify(pages));
  });
}

// Fast redeploys (docs/decisions.md#fast-redeploys): a deployment of a repository project whose
// commit changes only the bodies of a few existing pages renders just those pages and reuses the
// rest of the previous build of the same target; anything else, or anything uncertain, is a full
// build. Each build records what it was made from (its commit, a fingerprint of Folio and of the
// build's settings, the pages' last-updated dates) beside its directory, for the next deployment.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { contentLayout, listRootFiles } from '../../site/layout.ts';
import { repoRoot } from '../../site/settings.ts';
import { git, type GitOptions } from '../git.ts';
import { parsePage } from '../pages/files.ts';
import { buildDir, buildInputsFile } from '../project-files.ts';
import type { DeploymentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** Past this many pages to render, a full build costs about the same: it is one. */
export const MAX_FAST_PAGES = 50;

/** What one build was made from. */
export interface BuildInputs {
  commit: string;
  /** Folio's code and the build's settings (build-inputs fingerprint). */
  fingerprint: string;
  /** The pages' last-updated dates the build showed (page-history.ts). */
  lastUpdated: Record<string, string>;
  /**
   * The warning lines of the build's log by the page file they name; `''`: lines that name no
   * page (docs.json keys, skipped files). A fast build, which checks and renders only some pages,
   * repeats the others' from here (carryOverWarnings).
   */
  warnings: PageWarnings;
  /**
   * The digests of the OpenAPI documents the server's checks passed for this build
   * (BuildSiteResult.validatedSpecs): a fast build over it does not validate them again. Kept here,
   * where no sandbox writes, never in the carried cache (docs/decisions.md, "Validated OpenAPI files
   * are the server's record, not the build's").
   */
  validatedSpecs?: string[];
}

export type PageWarnings = Record<string, string[]>;

/** The settings of a build that change its output, besides the content. */
export interface BuildSettingsKey {
  siteUrl: string;
  allowCode: boolean;
  editUrl: string | undefined;
}

export type RedeployPlan =
  | { kind: 'full'; reason: string }
  | { kind: 'fast'; previousBuild: string; pageFiles: string[]; changed: number; previous: { id: string; warnings: PageWarnings; validatedSpecs: string[] } };

export async function writeBuildInputs(dataDir: string, projectId: string, deploymentId: string, inputs: BuildInputs): Promise<void> {
  await writeFile(buildInputsFile(dataDir, projectId, deploymentId), JSON.stringify(inputs));
}

export async function removeBuildInputs(dataDir: string, projectId: string, deploymentId: string): Promise<void> {
  await rm(buildInputsFile(dataDir, projectId, deploymentId), { force: true });
}

async function readBuildInputs(dataDir: string, projectId: string, deploymentId: string): Promise<BuildInputs | undefined> {
  try {
    const parsed = JSON.parse(await readFile(buildInputsFile(dataDir, projectId, deploymentId), 'utf8')) as Partial<BuildInputs>;
    if (typeof parsed.commit !== 'string' || typeof parsed.fingerprint !== 'string' || !parsed.lastUpdated || typeof parsed.lastUpdated !== 'object') return undefined;
    // Without its warnings a fast build's log would miss those of the pages it does not check.
    if (!parsed.warnings || typeof parsed.warnings !== 'object' || !Object.values(parsed.warnings).every((lines) => Array.isArray(lines))) return undefined;
    // An older record has none: the fast build then validates its OpenAPI files.
    if (parsed.validatedSpecs !== undefined && !(Array.isArray(parsed.validatedSpecs) && parsed.validatedSpecs.every((d) => typeof d === 'string'))) return undefined;
    return parsed as BuildInputs;
  } catch {
    return undefined;
  }
}

let folioCode: Promise<string> | undefined;

/** A hash of everything of Folio that renders a site: the site code, the Astro config, the locked dependencies. Once per process. */
function folioCodeHash(): Promise<string> {
  folioCode ??= (async () => {
    const hash = createHash('sha256');
    const files = (await readdir(path.join(repoRoot, 'src/site'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    for (const file of [...files, path.join(repoRoot, 'astro.config.mjs'), path.join(repoRoot, 'package-lock.json')]) {
      hash.update(path.relative(repoRoot, file)).update('\0').update(await readFile(file).catch(() => Buffer.alloc(0))).update('\0');
    }
    return hash.digest('hex');
  })();
  return folioCode;
}

/** The fingerprint a build records: a later build may reuse it only with the same one. */
export async function buildFingerprint(settings: BuildSettingsKey): Promise<string> {
  return createHash('sha256').update(JSON.stringify([await folioCodeHash(), settings.siteUrl, settings.allowCode, settings.editUrl ?? null])).digest('hex');
}

/** The newest succeeded deployment of the same target (production, or the same preview) before this one. */
async function previousDeployment(store: Store, deployment: DeploymentRecord): Promise<DeploymentRecord | undefined> {
  let after: DeploymentRecord | undefined;
  // Newest first; a few pages back is plenty (older builds are pruned anyway).
  for (let round = 0; round < 4; round++) {
    const page = await store.listDeployments(deployment.project_id, 50, after);
    for (const d of page.items) {
      if (d.id === deployment.id || d.trigger === 'promote' || d.promoted_from) continue;
      if (d.status === 'succeeded' && d.preview_label === deployment.preview_label) return d;
    }
    if (!page.hasMore) return undefined;
    after = page.items.at(-1);
  }
  return undefined;
}

/**
 * Fast or full, and why. `root` is the synced content root this deployment builds (its snapshot);
 * `inputs` what this build is made from.
 */
export async function planRedeploy(input: {
  store: Store;
  dataDir: string;
  deployment: DeploymentRecord;
  root: string;
  gitDir: string;
  gitOptions: GitOptions;
  inputs: BuildInputs;
  allowCode: boolean;
}): Promise<RedeployPlan> {
  const { store, dataDir, deployment, root, inputs } = input;
  const full = (reason: string): RedeployPlan => ({ kind: 'full', reason });
  if (deployment.full_build) return full('a full build was asked for');
  // Pages that run code may import one another: what a page change reaches is not known here.
  if (input.allowCode) return full('the project runs code');
  const previous = await previousDeployment(store, deployment);
  if (!previous) return full('no earlier build to reuse');
  const before = await readBuildInputs(dataDir, deployment.project_id, previous.id);
  const previousBuild = buildDir(dataDir, deployment.project_id, previous.id);
  if (!(await stat(previousBuild).catch(() => undefined))?.isDirectory()) return full('the previous build is no longer kept');
  if (!before) return full('the previous build has no usable record of what it was made from (an older Folio made it)');
  if (before.fingerprint !== inputs.fingerprint) return full('Folio or the build settings changed since the previous build');
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(before.commit)) return full('the previous build\'s commit is not known');

  let diff: string;
  try {
    diff = await git(input.gitDir, ['diff', '--name-status', '--no-renames', '-z', '--end-of-options', before.commit, inputs.commit], input.gitOptions);
  } catch {
    return full('the previous build\'s commit is not in the synced history');
  }
  const fields = diff.split('\0');
  const changed: string[] = [];
  const rootFiles = listRootFiles(root);
  const pages = new Set(rootFiles.pages);
  // A fast build lays a fresh Pagefind index over the previous build's `pagefind/` folder, so a
  // site whose own pages or files may live there (any folder of that name) is built in full.
  const own = [...rootFiles.pages, ...rootFiles.assets].find((file) => file.split('/').includes('pagefind'));
  if (own) return full(`${own} is in a folder named pagefind, where the search index goes`);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!;
    const file = fields[i + 1]!;
    if (status !== 'M') return full(`${file} ${status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'changed'}`);
    // Not a page: docs.json, a snippet, an OpenAPI file, a static file, code.
    if (!pages.has(file)) return full(`${file} changed`);
    changed.push(file);
  }
  for (const file of changed) {
    // Only the body may change: the frontmatter and the title feed the navigation, the other pages' prev/next links and the metadata.
    let old: string;
    try {
      old = await git(input.gitDir, ['show', `${before.commit}:${file}`], input.gitOptions);
    } catch {
      return full(`${file} could not be compared`);
    }
    const now = await readFile(path.join(root, file), 'utf8');
    const a = parsePage(old, pagePath(root, file));
    const b = parsePage(now, pagePath(root, file));
    if (a.yaml !== b.yaml) return full(`the frontmatter of ${file} changed`);
    if (a.title !== b.title) return full(`the title of ${file} changed`);
  }
  // A page whose last-updated date changed without its text (the synced history's depth moved) is rendered again too.
  const render = new Set(changed);
  for (const file of pages) if (inputs.lastUpdated[file] !== before.lastUpdated[file]) render.add(file);
  if (render.size > MAX_FAST_PAGES) return full(`${render.size} pages changed`);
  return { kind: 'fast', previousBuild, pageFiles: [...render].sort(), changed: changed.length, previous: { id: previous.id, warnings: before.warnings, validatedSpecs: before.validatedSpecs ?? [] } };
}

/** A page file's path in the site (`guide/intro` for `content/guide/intro.mdx`). */
function pagePath(root: string, file: string): string {
  const { pagesDir } = contentLayout(root);
  return (pagesDir ? file.slice(pagesDir.length + 1) : file).replace(/\.mdx?$/, '');
}

/**
 * A build's warning lines (BuildSiteResult.warnings) by the page file they name: by its file
 * (`content/a.mdx:3:1: …`, the content check's and the image check's form) or by its address
 * (`page /a: …`, the components' form). Lines naming no page go under `''`. Astro's time of day
 * is left out of its lines.
 */
export function warningsByPage(lines: string[], root: string): PageWarnings {
  // The root's pages are listed only for a line that names one: the listing walks every file of
  // the root (0.26 s at 25,000 pages) before the site goes live, and most builds warn of nothing.
  let known: { pages: Set<string>; byAddress: Map<string, string> } | undefined;
  const pagesOfRoot = () => {
    if (known) return known;
    const files = listRootFiles(root).pages;
    const byAddress = new Map<string, string>();
    for (const file of files) {
      const page = pagePath(root, file);
      byAddress.set(`/${page}`, file);
      if (page === 'index' || page.endsWith('/index')) byAddress.set(`/${page.slice(0, -'index'.length)}`.replace(/(.)\/$/, '$1'), file);
    }
    return (known = { pages: new Set(files), byAddress });
  };
  const out: PageWarnings = {};
  for (const logged of lines) {
    // Astro's logger starts its lines with the time: without it, a line repeated by a later build is the same line.
    const line = logged.replace(/^\d\d:\d\d:\d\d /, '');
    const named = /^\[folio\] warning: (?:page (\S+?)|([^:\s][^:]*?)):/.exec(line);
    let file = '';
    if (named?.[2] && pagesOfRoot().pages.has(named[2])) file = named[2];
    else if (named?.[1]) file = pagesOfRoot().byAddress.get(named[1].replace(/(.)\/$/, '$1')) ?? '';
    (out[file] ??= []).push(line);
  }
  return out;
}

/**
 * The warnings a fast build's log repeats from the previous build's (docs/decisions.md#fast-redeploys):
 * those of the pages it did not check and render again, and those naming no page that it did not
 * print itself; and all the warnings of the site as of this build, recorded for the next one.
 */
export function carryOverWarnings(previous: PageWarnings, rechecked: string[], fresh: PageWarnings): { carried: string[]; all: PageWarnings } {
  const again = new Set(rechecked);
  const all: PageWarnings = {};
  const carried: string[] = [];
  const printed = new Set(fresh[''] ?? []);
  for (const [file, lines] of Object.entries(previous)) {
    if (file === '') {
      const left = lines.filter((line) => !printed.has(line));
      carried.push(...left);
      if (left.length + printed.size > 0) all[''] = [...left, ...printed];
    } else if (!again.has(file)) {
      carried.push(...lines);
      all[file] = lines;
    }
  }
  for (const [file, lines] of Object.entries(fresh)) if (file !== '' || !('' in all)) all[file] = lines;
  return { carried, all };
}

// The content check inside the build: a Sätteri mdast plugin that runs the checker on the tree the
// build itself parsed, for every Markdown and MDX file it compiles (pages, snippets, anything
// else), before any other plugin. The check before a build reads files with the same parser and
// features; this is what guarantees that what is compiled is what was checked.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MdastPluginEntry, PluginFactoryContext } from 'satteri';
import { analyzeTree, compiledSource, formatProblem, frontmatterProblems, type CheckOptions, type MdNode, type Problem, type SourceShift } from './check-content.ts';
import { contentLayout } from '../layout.ts';
import { DROPS_PROPS_PREFIX, HAS_ESM_PREFIX, checkedDigest } from './checked-files.ts';

/** What the checks inside one build refused; the build fails when it holds any. */
export interface ContentGuard {
  problems: Problem[];
}

/** Thrown where the build compiles a refused file: its message lists the problems, one per line. */
export class ContentRefusedError extends Error {
  override name = 'ContentRefusedError';
  problems: Problem[];
  constructor(problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.problems = problems;
  }
}

/** The file's path relative to the content root, and whether it is a snippet. */
function describe(contentRoot: string, snippetsDir: string, fileURL: URL | undefined): Pick<CheckOptions, 'file' | 'kind' | 'snippetsDir'> {
  if (!fileURL || fileURL.protocol !== 'file:') return { file: '(markdown without a file)', kind: 'page', snippetsDir };
  const rel = path.relative(contentRoot, fileURLToPath(fileURL)).split(path.sep).join('/');
  const inside = rel && !rel.startsWith('..') && !path.isAbsolute(rel);
  return { file: inside ? rel : `(outside the content root) ${path.basename(rel)}`, kind: inside && rel.startsWith(`${snippetsDir}/`) ? 'snippet' : 'page', snippetsDir };
}

/** The file's text when `source` (what the build compiles) is what the check before the build maps it to. */
interface FileSource {
  text?: string;
  shift: SourceShift;
}

/** Where `source` (what the build compiles) sits in its file, as the check before the build maps it. */
function sourceOf(fileURL: URL | undefined, options: CheckOptions, source: string): FileSource {
  try {
    const text = fileURL && fs.readFileSync(fileURL, 'utf8');
    const compiled = text !== undefined ? compiledSource(text, options) : undefined;
    if (compiled && compiled.source === source) return { text, shift: compiled.shift };
  } catch {
    // positions then count from the compiled source
  }
  return { shift: { lines: 0, firstColumns: 0 } };
}

/** What the check before this build knew of the file a compile reads, worked out once per compile. */
export interface PriorCheck {
  options: CheckOptions;
  /** The file's text and where the compiled source sits in it (positions in problems count from there). */
  source: FileSource;
  /** The check before the build passed this exact text: the build's check need not walk it again. */
  passed: boolean;
  /** ...and found props a built-in component does not take (only then does component-props.ts walk it). */
  dropsProps: boolean;
  /** ...and found import or export statements (only then does snippet-imports.ts walk it). */
  hasEsm: boolean;
}

/**
 * The PriorCheck of each compile (one Sätteri plugin context per compile, shared by its plugins).
 * `checked`: digests of the files the check before this build passed (checked-files.ts); empty for
 * builds with code, which check everything again.
 */
export function priorCheck(contentRoot: string, allowCode: boolean, checked: ReadonlySet<string> = new Set()): (ctx: PluginFactoryContext) => PriorCheck {
  const { snippetsDir } = contentLayout(contentRoot);
  const known = new WeakMap<PluginFactoryContext, PriorCheck>();
  return (ctx) => {
    let prior = known.get(ctx);
    if (!prior) {
      const options: CheckOptions = { ...describe(contentRoot, snippetsDir, ctx.fileURL), format: ctx.sourceFormat === 'mdx' ? 'mdx' : 'md', allowCode };
      const source = sourceOf(ctx.fileURL, options, ctx.source);
      const digest = !allowCode && source.text !== undefined ? checkedDigest(source.text, options) : undefined;
      const passed = digest !== undefined && checked.has(digest);
      prior = { options, source, passed, dropsProps: !passed || checked.has(`${DROPS_PROPS_PREFIX}${digest}`), hasEsm: !passed || checked.has(`${HAS_ESM_PREFIX}${digest}`) };
      known.set(ctx, prior);
    }
    return prior;
  };
}

/** The check inside the build, on every Markdown and MDX file it compiles; `prior` says what is known already. */
export function contentCheckPlugin(guard: ContentGuard, prior: (ctx: PluginFactoryContext) => PriorCheck): MdastPluginEntry {
  return (ctx: PluginFactoryContext) => ({
    name: 'folio-content-check',
    options: { position: true },
    before(root) {
      const { options, source, passed } = prior(ctx);
      const problems = passed ? [] : analyzeTree(root as unknown as MdNode, options, source.shift).problems;
      // The frontmatter Astro read (an MDX `layout` would be imported as a module).
      const frontmatter = (ctx.data as { astro?: { frontmatter?: Record<string, unknown> } }).astro?.frontmatter;
      if (frontmatter) problems.unshift(...frontmatterProblems(frontmatter, options.file));
      if (problems.length === 0) return;
      const known = new Set(guard.problems.map(formatProblem));
      guard.problems.push(...problems.filter((p) => !known.has(formatProblem(p))));
      throw new ContentRefusedError(problems);
    },
  });
}

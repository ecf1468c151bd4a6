// The one checker for untrusted MDX/Markdown (shared by the site build and the pages API): reads a
// page or snippet with the build's own parser (Sätteri, with the build's features) and reports every
// problem with file:line:column. The build runs the same checks on the tree it compiles
// (build-check.ts), so a file the check did not see as the build does still fails there.
// MDX is JavaScript: imports, exports and expressions would run on the build machine, so only
// literal values are allowed; components are limited to Folio's own set. A project that allows code
// (`allowCode`) may import its own files (and React) and use any expression, within the other rules.
// This file reads the text (frontmatter, then the body the build compiles); the walker (walker.ts)
// runs the check families (families/) over its tree.
import { markdownToMdast, mdxToMdast } from 'satteri';
import { MARKDOWN_FEATURES } from '../markdown/features.ts';
import { emptyAnalysis, type CheckOptions, type ContentAnalysis, type MdNode, type Problem, type Report, type SourceShift } from './analysis.ts';
import { readFrontmatter } from './families/frontmatter.ts';
import { analyzeTree, shifted } from './walker.ts';
import { pageLinks } from './page-links.ts';

export type { CheckOptions, ContentAnalysis, MdNode, Problem, SnippetCall, SnippetImport, SourceShift } from './analysis.ts';
export { frontmatterProblems } from './families/frontmatter.ts';
export { analyzeTree } from './walker.ts';

/** Formats a problem the way build logs and API errors show it. */
export function formatProblem(p: Problem): string {
  return p.file ? `${p.file}:${p.line}:${p.column}: ${p.message}` : p.message;
}

/** Every problem of one page or snippet; an empty list means it may be built. */
export function checkContent(text: string, options: CheckOptions): Problem[] {
  return analyzeContent(text, options).problems;
}

/** The source the build compiles from a file's text, and how its positions map back to the text. */
export interface CompiledSource {
  source: string;
  shift: SourceShift;
}

// What `---\n---\n` becomes once Astro has blanked it: a body stored after a frontmatter block is
// compiled after blank lines, never at the start of a file (where `+++` would open frontmatter).
const BLANKED_FRONTMATTER = '   \n   \n';

/**
 * The source the build compiles from `text`: the body after Astro's frontmatter reader (lines and
 * columns kept), and for Markdown, trimmed, as Astro's content collections hand `.md` bodies to
 * the renderer. Reports frontmatter problems; undefined when the frontmatter cannot be read.
 */
export function compiledSource(text: string, options: CheckOptions, report: Report = () => undefined, warn: (message: string) => void = () => undefined): CompiledSource | undefined {
  let content: string;
  let lines = 0;
  if (options.frontmatter === false) {
    content = BLANKED_FRONTMATTER + text;
    lines = -2;
  } else {
    const body = readFrontmatter(text, report, warn);
    if (body === undefined) return undefined;
    content = body;
  }
  if (formatOf(options) === 'mdx') return { source: content, shift: { lines, firstColumns: 0 } };
  const removed = content.slice(0, content.length - content.trimStart().length);
  const breaks = removed.match(/\r\n|\r|\n/g)?.length ?? 0;
  const lastBreak = Math.max(removed.lastIndexOf('\n'), removed.lastIndexOf('\r'));
  return { source: content.trim(), shift: { lines: lines + breaks, firstColumns: removed.length - lastBreak - 1 } };
}

function formatOf(options: CheckOptions): 'md' | 'mdx' {
  return options.format ?? (options.file.endsWith('.md') ? 'md' : 'mdx');
}

/** Parses `source` as the build does (Sätteri, the build's features). Throws Sätteri's syntax errors. */
export function parseAsBuilt(source: string, format: 'md' | 'mdx'): MdNode {
  const parseTree = format === 'md' ? markdownToMdast : mdxToMdast;
  return parseTree(source, { features: MARKDOWN_FEATURES, position: true }) as unknown as MdNode;
}

export function analyzeContent(text: string, options: CheckOptions): ContentAnalysis {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const compiled = compiledSource(text, options, (_, message) => problems.push({ file: options.file, line: 1, column: 1, message }), (message) => warnings.push({ file: options.file, line: 1, column: 1, message }));
  if (!compiled) return emptyAnalysis(problems);
  let tree: MdNode;
  try {
    tree = parseAsBuilt(compiled.source, formatOf(options));
  } catch (error) {
    // Sätteri's syntax errors read `line:column: reason (rule)`.
    const message = (error as Error).message;
    const m = /^(\d+):(\d+): ([\s\S]*?)(?: \([a-z-]+:[a-z-]+\))?$/.exec(message);
    const at = m ? shifted({ line: Number(m[1]), column: Number(m[2]) }, compiled.shift) : { line: 1, column: 1 };
    problems.push({ file: options.file, ...at, message: `${formatOf(options) === 'md' ? 'Markdown' : 'MDX'} syntax error: ${m ? m[3] : message}` });
    return emptyAnalysis(problems);
  }
  const analysis = analyzeTree(tree, options, compiled.shift);
  analysis.links = pageLinks(tree, compiled.shift, options.file, options.snippetsDir);
  analysis.problems.unshift(...problems);
  analysis.warnings.unshift(...warnings);
  return analysis;
}

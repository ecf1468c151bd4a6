// The walker of the content check: one pass over a page's tree (Sätteri's mdast of the source the
// build compiles), handing each node to the check families that registered for its type
// (families/). A family is made anew for each page, so what it gathers (definitions and the
// references to them, the names the page's ESM declares) is that page's alone. Layout and reasons:
// docs/architecture.md ("The content check") and docs/decisions.md ("The content check as a walker").
import { emptyAnalysis, SKIP_CHILDREN, type CheckFamily, type CheckOptions, type ContentAnalysis, type Located, type MdNode, type NodeCheck, type PageCheck, type SourceShift } from './analysis.ts';
import { codeFamily } from './families/code.ts';
import { componentFamily } from './families/components.ts';
import { headingFamily } from './families/headings.ts';
import { rawHtmlFamily } from './families/raw-html.ts';
import { urlFamily } from './families/urls.ts';

/** The families of the tree, in the order their `start`, node checks and `finish` run. */
const FAMILIES: ReadonlyArray<(check: PageCheck) => CheckFamily> = [codeFamily, componentFamily, urlFamily, rawHtmlFamily, headingFamily];

/** Where `start` (a position in the compiled source) is in the file. */
export function shifted(start: { line: number; column: number }, shift: SourceShift): { line: number; column: number } {
  return { line: Math.max(1, start.line + shift.lines), column: start.line === 1 ? start.column + shift.firstColumns : start.column };
}

/**
 * Every problem of a parsed page or snippet: the tree Sätteri made of its compiled source
 * (`shift` maps positions back to the file). The build calls this on the tree it compiles.
 */
export function analyzeTree(tree: MdNode, options: CheckOptions, shift: SourceShift = { lines: 0, firstColumns: 0 }): ContentAnalysis {
  const result: ContentAnalysis = emptyAnalysis();
  const place = (at: Located) => (at?.position?.start ? shifted(at.position.start, shift) : { line: 1, column: 1 });
  const handlers = new Map<string, NodeCheck[]>();
  const visit = (node: MdNode) => {
    const checks = handlers.get(node.type);
    if (checks) {
      let skip = false;
      for (const handle of checks) if (handle(node) === SKIP_CHILDREN) skip = true;
      if (skip) return;
    }
    if (node.children) for (const child of node.children) visit(child);
  };
  const check: PageCheck = {
    options,
    result,
    report: (at, message) => result.problems.push({ file: options.file, ...place(at), message }),
    place,
    visit,
    declared: new Set(),
    hydrated: new Set(),
    snippetComponents: new Set(),
    constants: new Set(),
  };
  const families = FAMILIES.map((family) => family(check));
  for (const family of families) {
    for (const [type, handle] of Object.entries(family.nodes)) {
      if (!handle) continue;
      const checks = handlers.get(type);
      if (checks) checks.push(handle);
      else handlers.set(type, [handle]);
    }
  }
  for (const family of families) family.start?.(tree);
  visit(tree);
  for (const family of families) family.finish?.();
  return result;
}

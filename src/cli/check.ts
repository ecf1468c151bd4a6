// `folio check`: the content check a deployment runs first (content-check/check-root.ts), on the
// docs repository the author stands in. Results come from the check's own report, never from its
// printed text, so `--json` stays the same whatever check:site's wording becomes.
import { checkContentRoot } from '../site/content-check/check-root.ts';
import { formatProblem, type Problem } from '../site/content-check/check-content.ts';

export interface CheckResult {
  file: string;
  line: number;
  column: number;
  severity: 'error' | 'warning';
  /** The problem's own code when the check gives one, else `content_error` / `content_warning`. */
  code: string;
  message: string;
}

function result(problem: Problem, severity: CheckResult['severity']): CheckResult {
  const own = (problem as Problem & { code?: unknown }).code;
  return {
    file: problem.file,
    line: problem.line,
    column: problem.column,
    severity,
    code: typeof own === 'string' ? own : `content_${severity}`,
    message: problem.message,
  };
}

export interface CheckOutcome {
  pages: number;
  results: CheckResult[];
  errors: number;
  warnings: number;
}

/** `onlyPages`: check only these pages (and every snippet, docs.json and the file tree), as `folio dev` does after a change. */
export async function checkRepository(root: string, allowCode: boolean, onlyPages?: readonly string[]): Promise<CheckOutcome> {
  const report = await checkContentRoot(root, { allowCode, onlyPages });
  const results = [...report.problems.map((p) => result(p, 'error')), ...report.warnings.map((w) => result(w, 'warning'))];
  return { pages: report.pages.length, results, errors: report.problems.length, warnings: report.warnings.length };
}

/** The terminal's report: one line per result, as check:site prints them, then a summary. */
export function formatCheck(outcome: CheckOutcome): string {
  const lines = outcome.results.map((r) => formatProblem({ ...r, message: r.severity === 'warning' ? `warning: ${r.message}` : r.message }));
  lines.push(`${outcome.pages} pages, ${outcome.errors} errors, ${outcome.warnings} warnings`);
  return lines.join('\n');
}

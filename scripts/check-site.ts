// npm run check:site -- <content-root> [--allow-code] [--all-warnings]: the content check of a
// build, alone (no Astro build): every page, snippet, docs.json and OpenAPI file of the root, in
// either layout (Folio's or Mintlify's), with the rules a build applies first, all reported in one
// run. One line per problem, `path:line:col: message`; the warnings grouped by kind with their
// count and first places (--all-warnings: one line each); then `N pages, M refused, K warnings`.
// Exit code 1 when anything is refused, 2 for bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { checkContentRoot } from '../src/site/content-check/check-root.ts';
import { formatProblem } from '../src/site/content-check/check-content.ts';
import { readBuildLimits } from '../src/builder/build-limits.ts';
import { ConfigError } from '../src/lib/env-settings.ts';
import { warningSummary } from '../src/builder/warning-summary.ts';

const USAGE = 'usage: npm run check:site -- <content-root> [--allow-code] [--all-warnings]';
const args = process.argv.slice(2);
const allowCode = args.includes('--allow-code');
const allWarnings = args.includes('--all-warnings');
const [root, ...rest] = args.filter((a) => a !== '--allow-code' && a !== '--all-warnings');
if (!root || rest.length || root.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
if (!fs.lstatSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`${root}: not a directory`);
  process.exit(2);
}
// FOLIO_CHECK_TIMEOUT_MS (and the other build settings) validated before the first check uses it.
try {
  readBuildLimits();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
// The check processes keep nothing alive once idle: the script ends when the report is printed.
const report = await checkContentRoot(path.resolve(root), { allowCode });
for (const problem of report.problems) console.log(formatProblem(problem));
const warnings = report.warnings.map(formatProblem);
if (allWarnings) for (const warning of report.warnings) console.log(formatProblem({ ...warning, message: `warning: ${warning.message}` }));
else for (const line of warningSummary(warnings, '--all-warnings lists every one')) console.log(line);
// A file with any problem is refused (a build would refuse the whole site).
const refused = new Set(report.problems.map((p) => p.file)).size;
console.log(`${report.pages.length} pages, ${refused} refused, ${report.warnings.length} warnings`);
process.exitCode = report.problems.length ? 1 : 0;

// A content-check process of the pool in check-pool.ts: reads `{ id, kind, … }` messages and
// answers `{ id, result }` (or `{ id, error }`). Two kinds of check: a page or snippet
// (`analyzeContent`), and a site file (docs.json or mint.json: parsed, its `$ref`s resolved and
// validated, src/site/config/docs-config.ts). A separate process so an input that makes the parser or the schema
// slow (some pages are quadratic; a docs.json of 300,000 invalid values takes seconds) costs only
// this process, which the pool kills at its time limit: a thread could not be stopped while it is
// inside the native parser.
import { analyzeContent, type CheckOptions, type ContentAnalysis } from './check-content.ts';
import { DocsConfigError, type DocsConfigIssue } from '../config/config-values.ts';
import { type ParsedDocsConfig } from '../config/docs-config.ts';
import { parseSiteConfigText, type SiteConfigFile } from '../config/site-config-file.ts';

export type CheckJob =
  | { kind: 'page'; text: string; options: CheckOptions }
  /** `root`: the content root the file's `$ref`s are read from (none: a `$ref` is a problem). */
  | { kind: 'site-file'; file: SiteConfigFile; text: string; root?: string };

export type CheckRequest = CheckJob & { id: number };

/**
 * A site file checked: its configuration, or its problems. `locate` is a function and stays behind;
 * where each redirect rule is written comes along instead (the deployment's check names broken
 * redirects by it).
 */
export type CheckedSiteFile = Omit<ParsedDocsConfig, 'locate'> & { redirectsAt: Array<Omit<DocsConfigIssue, 'message'>> };
export type SiteFileCheck = { parsed: CheckedSiteFile } | { issues: DocsConfigIssue[] };

export type CheckResult = ContentAnalysis | SiteFileCheck;

/**
 * Sends to the pool; when the pool is already gone (a build that failed stops its checkers while one
 * is still starting or answering), this process just ends instead of printing an EPIPE stack trace
 * into the build's output.
 */
function answer(message: object): void {
  process.send!(message, undefined, undefined, (error) => {
    if (error) process.exit(0);
  });
}

function checkSiteFile(file: SiteConfigFile, text: string, root: string | undefined): SiteFileCheck {
  try {
    const { config, warnings, files, locate } = parseSiteConfigText(file, text, root);
    const redirectsAt = locate ? (config.redirects ?? []).map((_, index) => locate(['redirects', index])) : [];
    return { parsed: { config, warnings, files, redirectsAt } };
  } catch (error) {
    if (!(error instanceof DocsConfigError)) throw error;
    return { issues: error.issues };
  }
}

process.on('message', (message: CheckRequest) => {
  let reply: object;
  try {
    const result: CheckResult = message.kind === 'site-file' ? checkSiteFile(message.file, message.text, message.root) : analyzeContent(message.text, message.options);
    reply = { id: message.id, result };
  } catch (error) {
    reply = { id: message.id, error: (error as Error).message };
  }
  answer(reply);
});
// The pool closes the channel when it is done with this process (or when the server exits).
process.on('disconnect', () => process.exit(0));
answer({ ready: true });

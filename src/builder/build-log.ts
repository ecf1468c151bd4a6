// A build's log: its processes' output read as lines (each cut at MAX_LOG_LINE characters, in time
// linear in the output), the budget of the whole log (MAX_LOG_BYTES), and the failure lines Folio's
// worker marks (FOLIO_ERROR) read back as problems.
import { type Problem } from '../site/content-check/check-content.ts';

/**
 * Longest log line kept, in characters: a build's output is tenant-made and every line is scanned
 * for paths (tenant-paths.ts) and stored; the rest of a longer line is dropped as it arrives.
 */
export const MAX_LOG_LINE = 8192;

/**
 * Most of a build's output kept, in bytes (the deployment log and the result's lines): about
 * 100 bytes a page for Astro's own lines leaves room for 25,000-page sites and their warnings.
 * Past it, lines are dropped and counted; Folio's error lines still get through, a bounded number
 * of them, so a failed build still says why.
 */
export const MAX_LOG_BYTES = 16 * 2 ** 20;
/** Folio's error lines still kept once the log is past MAX_LOG_BYTES, at most. */
export const MAX_ERRORS_PAST_BUDGET = 100;
/** How a failure line starts (build-worker.ts writes them; errorProblems reads them back). */
export const FOLIO_ERROR = '[folio] error: ';

/**
 * Calls `onLine` with each non-blank line of a child's output, without colour codes or trailing
 * space, cut at MAX_LOG_LINE characters. Each chunk is scanned once and an unfinished line only
 * grows up to the limit, so any output costs time linear in its size.
 */
export function lineReader(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let rest = '';
  let cut = false;
  const add = (piece: string) => {
    if (cut) return;
    if (rest.length + piece.length <= MAX_LOG_LINE) {
      rest += piece;
      return;
    }
    rest += piece.slice(0, MAX_LOG_LINE - rest.length);
    cut = true;
  };
  const end = () => {
    const line = cut ? `${rest} … (line cut at ${MAX_LOG_LINE} characters)` : rest;
    rest = '';
    cut = false;
    // eslint-disable-next-line no-control-regex -- ESC starts the colour codes removed here
    const clean = line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
    if (clean) onLine(clean);
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      add(chunk.slice(start, newline));
      end();
      start = newline + 1;
    }
    add(chunk.slice(start));
  });
  stream.on('end', () => (rest || cut) && end());
}

/** The failure lines of the worker, with their file:line:column when Astro gave one. */
export function errorProblems(log: string[]): Problem[] {
  return log
    .filter((l) => l.startsWith(FOLIO_ERROR))
    .map((l) => {
      const text = l.slice(FOLIO_ERROR.length);
      const m = /^(.+?):(\d+):(\d+): ([\s\S]*)$/.exec(text);
      return m
        ? { file: m[1] ?? '', line: Number(m[2]), column: Number(m[3]), message: m[4] ?? '' }
        : { file: '', line: 0, column: 0, message: text };
    });
}

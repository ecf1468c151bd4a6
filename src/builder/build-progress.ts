// Progress of a long site build in its log (docs/decisions.md, "Sites of 25,000 pages"): the step it is in, pages rendered of the
// total, and the time since the start, every few seconds. Astro is silent for minutes while it
// syncs the content and bundles a large site, and the content check and search indexing print
// nothing; without these lines a 25,000-page build looks hung. The steps are build.ts's phases,
// refined inside Astro by the stage lines Astro itself prints.
//
// The same report also goes, as data, to whoever runs the build inside `observeProgress` (the
// deployment runner, which keeps the latest one on the deployment for the console and the API).
// Nobody reads a report back from the log: a tenant's build prints into the same log and could
// print a line that looks like one. The counts come from the build's output lines (Astro's stages
// and rendered pages, Folio's count of generated pages), which a code project's pages can also
// print: they are clamped to what a site can hold, so a forged line moves only its own figures.
import { AsyncLocalStorage } from 'node:async_hooks';
import { MAX_OUTPUT_ENTRIES } from '../site/tenant-limits.ts';

/** How often a progress line is written, by default. */
export const PROGRESS_INTERVAL_MS = 5000;

/** Astro's own stage lines (its logger's wording in Astro 7) and the step each one starts. */
const ASTRO_STAGES: Array<[RegExp, string]> = [
  [/Syncing content/, 'content sync'],
  [/Building static entrypoints/, 'bundling'],
  [/generating static routes/i, 'rendering pages'],
  [/generating optimized images/i, 'images'],
];
/** Folio's line naming the pages it generates from OpenAPI files (src/site/pages.ts), once per build. */
const GENERATED_PAGES = /^\[folio\] openapi: .*: (\d+) operation page\(s\)$/;
/** A page Astro rendered: `├─ /guides/install/index.html (+12ms)`. */
const RENDERED_PAGE = /[├└]─ \/(?!404\.html)\S*\.html\b/;

/** One report: what a progress line says, as data. */
export interface ProgressReport {
  /** build.ts's phase (`check`, `astro`, `pagefind`…), with Astro's stage inside `astro`: `astro: rendering pages`. */
  phase: string;
  /** Pages rendered so far; absent before the content check counted the pages. */
  pages_done?: number;
  /** Pages of the site (generated pages included once rendered); absent before the content check. */
  pages_total?: number;
  /** Seconds since the build's first phase. */
  seconds: number;
}

/** The log line of a report. */
export function progressLine(report: ProgressReport): string {
  const pages = report.pages_total === undefined ? '' : `, ${report.pages_done}/${report.pages_total} pages`;
  return `progress: ${report.phase}${pages}, ${report.seconds} s`;
}

const observers = new AsyncLocalStorage<(report: ProgressReport) => void>();

/**
 * Runs `work` (a call of buildSite) so that every progress report of the build it starts also
 * reaches `onReport`, from the build's own counters, never from its output.
 */
export function observeProgress<T>(onReport: (report: ProgressReport) => void, work: () => T): T {
  return observers.run(onReport, work);
}

export interface BuildProgress {
  /** The build entered `phase` (build.ts's phase names). */
  phase(phase: string): void;
  /** The pages the content check found: the total. */
  total(pages: number): void;
  /** Reads one line of the build's output (Astro's stages and rendered pages). */
  line(line: string): void;
  stop(): void;
}

/** Writes a progress line through `emit` every `intervalMs` from the first phase until stopped. */
export function startProgress(emit: (line: string) => void, intervalMs = PROGRESS_INTERVAL_MS): BuildProgress {
  const started = performance.now();
  let phase = 'starting';
  let stage: string | undefined;
  let total: number | undefined;
  /** OpenAPI operation pages, on top of the checked pages once Folio has counted them. */
  let generated = 0;
  let rendered = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const observer = observers.getStore();
  const report = () => {
    const now: ProgressReport = { phase: stage ? `${phase}: ${stage}` : phase, seconds: Math.round((performance.now() - started) / 1000) };
    if (total !== undefined) {
      // Generated pages (OpenAPI operations) come on top of the checked ones: counted from Folio's
      // line naming them, so the count never reads as done while they are still to render.
      now.pages_done = Math.min(rendered, MAX_OUTPUT_ENTRIES);
      now.pages_total = Math.min(Math.max(total + generated, rendered), MAX_OUTPUT_ENTRIES);
    }
    emit(progressLine(now));
    observer?.(now);
  };
  return {
    phase(next) {
      phase = next;
      stage = undefined;
      if (stopped) return;
      // Each step says so when it starts, however short: a quick step may end between two ticks.
      report();
      if (timer) return;
      timer = setInterval(report, intervalMs);
      timer.unref();
    },
    total(pages) {
      total = pages;
    },
    line(line) {
      if (RENDERED_PAGE.test(line)) {
        rendered++;
        return;
      }
      const operations = GENERATED_PAGES.exec(line);
      // A code project's pages print to this log too: a count no site can reach is not Folio's line.
      if (operations) generated = Math.min(Number(operations[1]), MAX_OUTPUT_ENTRIES);
      for (const [pattern, name] of ASTRO_STAGES) if (pattern.test(line)) stage = name;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

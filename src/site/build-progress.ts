// Progress of a long site build in its log (docs/decisions.md, "Sites of 25,000 pages"): the step it is in, pages rendered of the
// total, and the time since the start, every few seconds. Astro is silent for minutes while it
// syncs the content and bundles a large site, and the content check and search indexing print
// nothing; without these lines a 25,000-page build looks hung. The steps are build.ts's phases,
// refined inside Astro by the stage lines Astro itself prints.

/** How often a progress line is written, by default. */
export const PROGRESS_INTERVAL_MS = 5000;

/** Astro's own stage lines (its logger's wording in Astro 7) and the step each one starts. */
const ASTRO_STAGES: Array<[RegExp, string]> = [
  [/Syncing content/, 'content sync'],
  [/Building static entrypoints/, 'bundling'],
  [/generating static routes/i, 'rendering pages'],
  [/generating optimized images/i, 'images'],
];
/** Folio's line naming the pages it generates from OpenAPI files (pages.ts), once per build. */
const GENERATED_PAGES = /^\[folio\] openapi: .*: (\d+) operation page\(s\)$/;
/** A page Astro rendered: `├─ /guides/install/index.html (+12ms)`. */
const RENDERED_PAGE = /[├└]─ \/(?!404\.html)\S*\.html\b/;

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
  const report = () => {
    const step = stage ? `${phase}: ${stage}` : phase;
    // Generated pages (OpenAPI operations) come on top of the checked ones: counted from Folio's
    // line naming them, so the count never reads as done while they are still to render.
    const pages = total === undefined ? '' : `, ${rendered}/${Math.max(total + generated, rendered)} pages`;
    emit(`progress: ${step}${pages}, ${Math.round((performance.now() - started) / 1000)} s`);
  };
  return {
    phase(next) {
      phase = next;
      stage = undefined;
      if (timer || stopped) return;
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
      if (operations) generated = Number(operations[1]);
      for (const [pattern, name] of ASTRO_STAGES) if (pattern.test(line)) stage = name;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

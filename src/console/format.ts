// Formatting shared by the console's pages and its browser scripts (no server code here: the
// scripts bundle this file; types only, which the bundle drops).
import type { DeploymentProgress } from '../service/store/records.ts';

/** A length of time for people: "42 s", "3 min 5 s". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The build's steps in the words of the deployment page (src/builder/build-progress.ts names them). */
const STEPS: Record<string, string> = {
  starting: 'Starting',
  check: 'Checking content',
  'sandbox input': 'Preparing the sandbox',
  'link previous build': 'Reusing the previous build',
  astro: 'Building pages',
  'astro: content sync': 'Reading content',
  'astro: bundling': 'Bundling',
  'astro: rendering pages': 'Rendering pages',
  'astro: images': 'Optimizing images',
  output: 'Writing the site',
  pagefind: 'Indexing for search',
};

/**
 * What the deployment page's progress line says while a deployment runs: waiting, or the build's
 * step and pages rendered of the total with the time since it started (`elapsedS`), or only the
 * time before the build's first report.
 */
export function progressText(status: string, elapsedS: number | undefined, progress: DeploymentProgress | null | undefined): string {
  if (status === 'queued' || elapsedS === undefined) return 'Waiting for a build slot…';
  if (!progress) return `Building for ${formatSeconds(elapsedS)}…`;
  const step = STEPS[progress.phase] ?? progress.phase;
  const pages = progress.pages_total === undefined ? '' : `: ${progress.pages_done ?? 0} / ${progress.pages_total} pages`;
  return `${step}${pages} (building for ${formatSeconds(elapsedS)})`;
}

// The content check's time limit (FOLIO_CHECK_TIMEOUT_MS): CPU time one page or snippet may take to
// check. One of the build settings (src/builder/build-limits.ts includes this schema), and here
// because the check processes' pool (check-pool.ts) reads it for page writes and for the check of
// a content root before a build, and the site may not import the builder (docs/architecture.md#rooms).
import { readSettings, wholeNumber } from '../../lib/env-settings.ts';

/** CPU time one page or snippet may take to check, by default (FOLIO_CHECK_TIMEOUT_MS). */
export const CHECK_TIME_LIMIT_MS = 1500;

export const checkTimeLimitShape = {
  FOLIO_CHECK_TIMEOUT_MS: wholeNumber(100, 600_000).default(CHECK_TIME_LIMIT_MS),
};

let checkLimit: { raw: string | undefined; ms: number } | undefined;

/**
 * FOLIO_CHECK_TIMEOUT_MS of this process's environment, validated as readBuildLimits validates it.
 * The check processes' pool asks for it once per page; the schema runs again only when the
 * variable changed (a test sets it), not a thousand times per build.
 */
export function checkTimeLimitMs(): number {
  const raw = process.env.FOLIO_CHECK_TIMEOUT_MS;
  if (!checkLimit || checkLimit.raw !== raw) {
    checkLimit = { raw, ms: readSettings(checkTimeLimitShape, process.env).FOLIO_CHECK_TIMEOUT_MS };
  }
  return checkLimit.ms;
}

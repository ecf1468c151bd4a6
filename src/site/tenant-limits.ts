// Limits on what a tenant's site files may make the server do on its event loop or keep in its
// memory (docs/decisions.md#tenant-sized-input-stays-linear-and-bounded). Each is far above what real
// documentation needs; they are here together so that one place says what a site may cost.

/**
 * Longest object key of a site file (docs.json, mint.json) that gets a position of its own in a
 * problem's `file:line:col`; a longer one (no real key is) points at the object holding it.
 */
export const MAX_LOCATED_KEY_LENGTH = 1024;

/**
 * The most redirects a site may have (docs.json `redirects`), all rules together: the server keeps
 * them compiled in memory for as long as the build is live (src/hosting/redirects.ts), so their
 * size is bounded as a whole, not only per rule. The largest real sites have a few hundred rules
 * of at most five segments (1,661 segments and about 40,000 characters in all).
 */
export const REDIRECT_LIMITS = {
  rules: 5_000,
  /** Path segments of all sources together: a node of the compiled table each, at most. */
  segments: 20_000,
  /** Characters of all sources and destinations together. */
  characters: 500_000,
} as const;

/** Largest stored redirects file the server reads (its rules within REDIRECT_LIMITS, as JSON). */
export const MAX_REDIRECTS_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Paths a live site was asked for and has no file at, remembered per site (src/hosting/site-files.ts):
 * at most this many, each at most MAX_CACHED_MISS_PATH characters; a visitor chooses them, so a
 * longer one is looked up again each time instead of kept.
 */
export const MAX_CACHED_MISSES_PER_SITE = 1_000;
export const MAX_CACHED_MISS_PATH = 256;

/** Most files and folders a site's output may hold: far beyond any real site, and bounded memory for the steps after. */
export const MAX_OUTPUT_ENTRIES = 200_000;

/** Longest path (in characters, relative to the output) a site's file may have: no real site comes near. */
export const MAX_OUTPUT_PATH = 1024;

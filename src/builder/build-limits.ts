// The operator's settings of site builds (the time limits, the sandbox and its memory limit), read
// from environment variables with one schema and one set of defaults. The server's settings
// (src/service/config.ts) are this schema plus its own, so `npm start`, `npm run build:site` and
// `npm run check:site` read these the same way; it lives in src/site because the build role may not
// import service code (docs/architecture.md#rooms). The table of every setting is
// content/configuration.mdx (test/service/settings-table.test.ts keeps it in step).
import { z } from 'zod';
import { DEFAULT_SANDBOX_LIMITS, SANDBOX_MODES, type BuildSandbox, type SandboxMode } from './sandbox.ts';

/** CPU time one page or snippet may take to check, by default (FOLIO_CHECK_TIMEOUT_MS). */
export const CHECK_TIME_LIMIT_MS = 1500;

/** A whole number between min and max, written as decimal digits. */
export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

export const buildLimitsShape = {
  FOLIO_BUILD_TIMEOUT_S: wholeNumber(1, 86_400).default(600),
  // Read by the check processes' pool (src/site/content-check/check-pool.ts) for page writes and
  // for the check of a content root before a build.
  FOLIO_CHECK_TIMEOUT_MS: wholeNumber(100, 600_000).default(CHECK_TIME_LIMIT_MS),
  // The build sandbox (content/operating/build-sandbox.mdx).
  FOLIO_SANDBOX: z.enum(SANDBOX_MODES, `must be one of ${SANDBOX_MODES.join(', ')}`).default('auto'),
  FOLIO_BWRAP_PATH: z.string().min(1, 'must not be empty').default('bwrap'),
  FOLIO_BUILD_MEMORY_MB: wholeNumber(256, 1_048_576).default(DEFAULT_SANDBOX_LIMITS.memoryMb),
};

export interface BuildLimits {
  buildTimeoutS: number;
  checkTimeoutMs: number;
  sandbox: SandboxMode;
  bwrapPath: string;
  buildMemoryMb: number;
}

/** A setting with a bad value; the message names the variable, its value and what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the variables of `shape` found in `env`: an empty variable means "use the default", as
 * shells make unsetting awkward. Throws a ConfigError naming the first bad variable.
 */
export function readSettings<Shape extends z.ZodRawShape>(shape: Shape, env: NodeJS.ProcessEnv): z.output<z.ZodObject<Shape>> {
  const present = Object.fromEntries(
    Object.keys(shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = z.object(shape).safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // The variable, not the position in a list (FOLIO_GIT_PROTOCOLS.1): the message names the item.
  const name = String(issue.path[0] ?? Object.keys(shape)[0]);
  throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
}

/** The build settings of `env` (the process's own by default); a bad value throws a ConfigError. */
export function readBuildLimits(env: NodeJS.ProcessEnv = process.env): BuildLimits {
  return buildLimitsOf(readSettings(buildLimitsShape, env));
}

let checkLimit: { raw: string | undefined; ms: number } | undefined;

/**
 * FOLIO_CHECK_TIMEOUT_MS of this process's environment, validated as readBuildLimits validates it.
 * The check processes' pool asks for it once per page; the schema runs again only when the
 * variable changed (a test sets it), not a thousand times per build.
 */
export function checkTimeLimitMs(): number {
  const raw = process.env.FOLIO_CHECK_TIMEOUT_MS;
  if (!checkLimit || checkLimit.raw !== raw) {
    const { FOLIO_CHECK_TIMEOUT_MS } = buildLimitsShape;
    checkLimit = { raw, ms: readSettings({ FOLIO_CHECK_TIMEOUT_MS }, process.env).FOLIO_CHECK_TIMEOUT_MS };
  }
  return checkLimit.ms;
}

/** The build settings out of validated variables (of this schema, or of one that includes it). */
export function buildLimitsOf(e: z.output<z.ZodObject<typeof buildLimitsShape>>): BuildLimits {
  return {
    buildTimeoutS: e.FOLIO_BUILD_TIMEOUT_S,
    checkTimeoutMs: e.FOLIO_CHECK_TIMEOUT_MS,
    sandbox: e.FOLIO_SANDBOX,
    bwrapPath: e.FOLIO_BWRAP_PATH,
    buildMemoryMb: e.FOLIO_BUILD_MEMORY_MB,
  };
}

/** The sandbox a build runs in under these settings (the other limits keep their defaults). */
export function buildSandboxOf(limits: BuildLimits): BuildSandbox {
  return { mode: limits.sandbox, bwrapPath: limits.bwrapPath, limits: { ...DEFAULT_SANDBOX_LIMITS, memoryMb: limits.buildMemoryMb } };
}

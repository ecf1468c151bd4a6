// The operator's settings of site builds (the time limits, the sandbox and its memory limit), read
// from environment variables with one schema and one set of defaults. The server's settings
// (src/service/config.ts) are this schema plus its own, so `npm start`, `npm run build:site` and
// `npm run check:site` read these the same way; it lives in src/builder because the build role may
// not import service code (docs/architecture.md#rooms). The table of every setting is
// content/configuration.mdx (test/service/settings-table.test.ts keeps it in step).
import { z } from 'zod';
import { readSettings, wholeNumber } from '../lib/env-settings.ts';
import { checkTimeLimitShape } from '../site/content-check/check-time-limit.ts';
import { DEFAULT_SANDBOX_LIMITS, SANDBOX_MODES, type BuildSandbox, type SandboxMode } from './sandbox.ts';

export const buildLimitsShape = {
  FOLIO_BUILD_TIMEOUT_S: wholeNumber(1, 86_400).default(600),
  // Read by the check processes' pool (src/site/content-check/check-pool.ts) for page writes and
  // for the check of a content root before a build.
  ...checkTimeLimitShape,
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

/** The build settings of `env` (the process's own by default); a bad value throws a ConfigError. */
export function readBuildLimits(env: NodeJS.ProcessEnv = process.env): BuildLimits {
  return buildLimitsOf(readSettings(buildLimitsShape, env));
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

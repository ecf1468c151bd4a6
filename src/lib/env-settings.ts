// Settings read from environment variables with a zod schema: one reader and one error for every
// part that has settings (the server's, src/service/config.ts; the builds',
// src/builder/build-limits.ts; the content check's time limit,
// src/site/content-check/check-time-limit.ts), so a bad value is reported alike wherever it is read.
import { z } from 'zod';

/** A whole number between min and max, written as decimal digits. */
export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

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

// The service's settings, read from environment variables (CONTRACT §1) and validated once.
import path from 'node:path';
import { z } from 'zod';

export const PLANS = ['free', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];
export type RateLimits = Record<Plan, number>;

export const DEFAULT_RATE_LIMITS: RateLimits = { free: 60, pro: 600, business: 6000 };

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** Parses `free=60,pro=600,business=6000`; plans not named keep their default limit. */
function parseRateLimits(value: string, ctx: z.RefinementCtx): RateLimits {
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^(\w+)=(\d+)$/.exec(part);
    if (!match || !(PLANS as readonly string[]).includes(match[1]) || Number(match[2]) < 1) {
      ctx.addIssue({
        code: 'custom',
        message: `"${part}" is not PLAN=LIMIT with PLAN one of ${PLANS.join(', ')} and LIMIT ≥ 1 (example: free=60,pro=600,business=6000)`,
      });
      return z.NEVER;
    }
    limits[match[1] as Plan] = Number(match[2]);
  }
  return limits;
}

const GIT_PROTOCOLS = ['https', 'http', 'ssh', 'git', 'file'] as const;

const envSchema = z.object({
  PORT: integer(0, 65535).default(4321),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  FOLIO_DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  FOLIO_SERVICE_DOMAIN: z
    .string()
    .transform((d) => d.toLowerCase())
    .pipe(z.string().regex(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/, 'must be a hostname such as localhost or docs.example.com'))
    .default('localhost'),
  FOLIO_GIT_URL: z
    .string()
    .refine((u) => u.includes('{owner}') && u.includes('{name}'), 'must contain {owner} and {name}')
    .default('https://github.com/{owner}/{name}.git'),
  FOLIO_GIT_PROTOCOLS: z
    .string()
    .transform((s) => s.split(',').map((p) => p.trim()).filter(Boolean))
    .pipe(z.array(z.enum(GIT_PROTOCOLS, `each protocol must be one of ${GIT_PROTOCOLS.join(', ')}`)).min(1, 'must name at least one protocol'))
    .default(['https']),
  FOLIO_BUILD_CONCURRENCY: integer(1, 64).default(1),
  FOLIO_BUILD_TIMEOUT_S: integer(1, 86_400).default(600),
  FOLIO_RATE_LIMITS: z.string().transform(parseRateLimits).default(DEFAULT_RATE_LIMITS),
  // Extensions (README): how project URLs are written when Folio sits behind a proxy.
  FOLIO_PUBLIC_SCHEME: z.enum(['http', 'https'], 'must be http or https').default('http'),
  FOLIO_PUBLIC_PORT: integer(1, 65535).optional(),
  // Whether projects may enable code (allow_code); false keeps every build free of tenant code.
  FOLIO_ALLOW_CODE: z.enum(['true', 'false'], 'must be true or false').transform((v) => v === 'true').default(true),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  serviceDomain: string;
  gitUrl: string;
  gitProtocols: string[];
  buildConcurrency: number;
  buildTimeoutS: number;
  rateLimits: RateLimits;
  /** Scheme and port used in project URLs (`url` field); no publicPort means the listening port. */
  publicScheme: 'http' | 'https';
  publicPort?: number;
  /** Projects may enable code (`allow_code`); when false, no build runs tenant code. */
  allowCode: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the settings; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "use the default", as shells make unsetting awkward.
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.FOLIO_DATA_DIR),
    serviceDomain: e.FOLIO_SERVICE_DOMAIN,
    gitUrl: e.FOLIO_GIT_URL,
    gitProtocols: e.FOLIO_GIT_PROTOCOLS,
    buildConcurrency: e.FOLIO_BUILD_CONCURRENCY,
    buildTimeoutS: e.FOLIO_BUILD_TIMEOUT_S,
    rateLimits: e.FOLIO_RATE_LIMITS,
    publicScheme: e.FOLIO_PUBLIC_SCHEME,
    publicPort: e.FOLIO_PUBLIC_PORT,
    allowCode: e.FOLIO_ALLOW_CODE,
  };
}

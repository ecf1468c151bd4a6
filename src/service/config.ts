// The service's settings, read from environment variables (docs/decisions.md#hosts-and-configuration) and validated once.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseStorageUrl, type ObjectStorageSettings } from './object-storage/settings.ts';
import { HOSTNAME } from './project-rules.ts';
import { buildLimitsOf, buildLimitsShape, type BuildLimits } from '../builder/build-limits.ts';
import { ConfigError, readSettings, wholeNumber as integer } from '../lib/env-settings.ts';
import { PROGRESS_INTERVAL_MS } from '../builder/build-progress.ts';
import { SEARCH_SHARD_PAGES } from '../builder/search-shards.ts';

export { ConfigError };

export const PLANS = ['free', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];
export type RateLimits = Record<Plan, number>;

export const DEFAULT_RATE_LIMITS: RateLimits = { free: 60, pro: 600, business: 6000 };

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

/** A comma-separated list, blanks dropped. */
const list = z.string().transform((s) => s.split(',').map((p) => p.trim()).filter(Boolean));

/** `ip` or `ip:port` (IPv6 with a port in brackets: `[::1]:53`), as node:dns setServers takes them. */
function dnsServerProblem(server: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  const withPort = /^([^:]+):(\d+)$/.exec(server);
  const [ip, port] = bracketed ? [bracketed[1], bracketed[2]] : withPort ? [withPort[1], withPort[2]] : [server, undefined];
  if (!isIP(ip) || (bracketed && isIP(ip) !== 6)) return `"${server}" is not an IP address with an optional port (examples: 1.1.1.1, 127.0.0.1:5353, [::1]:53)`;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `"${server}" has a port outside 1–65535`;
  return undefined;
}

const GIT_PROTOCOLS = ['https', 'http', 'ssh', 'git', 'file'] as const;

/** What a node does (FOLIO_ROLES): the API and hooks, tenant sites, the console, builds. */
export const ROLES = ['api', 'sites', 'console', 'worker'] as const;
export type Role = (typeof ROLES)[number];

// The build settings (timeouts, sandbox) come from the site role's schema, shared with
// `npm run build:site`; the table of them all is content/configuration.mdx.
export const settingsShape = {
  ...buildLimitsShape,
  PORT: integer(0, 65535).default(4321),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  FOLIO_DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  FOLIO_SERVICE_DOMAIN: z
    .string()
    .transform((d) => d.toLowerCase())
    .pipe(z.string().regex(HOSTNAME, 'must be a hostname such as localhost or docs.example.com'))
    .default('localhost'),
  FOLIO_GIT_URL: z
    .string()
    .refine((u) => u.includes('{owner}') && u.includes('{name}'), 'must contain {owner} and {name}')
    .default('https://github.com/{owner}/{name}.git'),
  FOLIO_GIT_PROTOCOLS: list
    .pipe(z.array(z.enum(GIT_PROTOCOLS, `each protocol must be one of ${GIT_PROTOCOLS.join(', ')}`)).min(1, 'must name at least one protocol'))
    .default(['https']),
  FOLIO_BUILD_CONCURRENCY: integer(1, 64).default(1),
  // Most builds of one organization at a time, over every worker node (0: no limit); organizations
  // take turns in any case (docs/decisions.md#fair-build-queue).
  FOLIO_BUILDS_PER_ORG: integer(0, 1024).default(0),
  FOLIO_RATE_LIMITS: z.string().transform(parseRateLimits).default(DEFAULT_RATE_LIMITS),
  // Extensions of the contract: how project URLs are written when Folio sits behind a proxy.
  FOLIO_PUBLIC_SCHEME: z.enum(['http', 'https'], 'must be http or https').default('http'),
  FOLIO_PUBLIC_PORT: integer(1, 65535).optional(),
  // Whether projects may enable code (allow_code); false keeps every build free of tenant code.
  FOLIO_ALLOW_CODE: z.enum(['true', 'false'], 'must be true or false').transform((v) => v === 'true').default(true),
  // Custom domains: where verification records are looked up, how often, and the hosts no
  // project may claim.
  FOLIO_DNS_SERVERS: list.superRefine((servers, ctx) => {
    const problem = servers.map(dnsServerProblem).find(Boolean);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }).default([]),
  FOLIO_DOMAIN_CHECK_S: integer(1, 86_400).default(300),
  FOLIO_API_HOSTS: list
    .transform((hosts) => hosts.map((h) => h.toLowerCase()))
    .pipe(z.array(z.string().regex(HOSTNAME, 'must be a comma-separated list of hostnames such as api.example.com')))
    .default([]),
  FOLIO_MIN_FREE_MB: integer(0, 1_000_000).default(100),
  // Continuous deployment (content/deploying.mdx): polling of connected branches, how
  // long previews live, builds kept for instant rollback, and whether event webhooks may target
  // private addresses.
  FOLIO_SYNC_POLL_S: integer(0, 86_400).default(0),
  FOLIO_PREVIEW_TTL_DAYS: integer(1, 3650).default(14),
  FOLIO_KEEP_BUILDS: integer(1, 1000).default(10),
  FOLIO_WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false'], 'must be 0 or 1').transform((v) => v === '1' || v === 'true').default(false),
  // PostgreSQL instead of the JSON file (content/operating/postgresql.mdx).
  FOLIO_DATABASE_URL: z
    .string()
    .refine((u) => URL.canParse(u) && /^postgres(ql)?:$/.test(new URL(u).protocol), 'must be a postgres:// URL such as postgres://folio:secret@db.internal:5432/folio')
    .optional(),
  // Several machines (content/operating/several-machines.mdx): what this node does, and how long
  // a build's claim holds without renewal before another node ends it `interrupted`.
  FOLIO_ROLES: list
    .pipe(z.array(z.enum(ROLES, `each role must be one of ${ROLES.join(', ')}`)).min(1, `must name at least one role of ${ROLES.join(', ')}`))
    .default([...ROLES]),
  FOLIO_BUILD_LEASE_S: integer(2, 3600).default(60),
  // How often a build reports its progress to its log and its deployment (src/builder/build-progress.ts).
  FOLIO_BUILD_PROGRESS_MS: integer(100, 600_000).default(PROGRESS_INTERVAL_MS),
  // Pages per search index shard (docs/decisions.md, "Search index in shards").
  FOLIO_SEARCH_SHARD_PAGES: integer(1, 1_000_000).default(SEARCH_SHARD_PAGES),
  // Rate limits counted in Redis or Valkey instead of the store (docs/decisions.md#rate-limits-in-redis).
  FOLIO_REDIS_URL: z
    .string()
    .refine((u) => URL.canParse(u) && /^rediss?:$/.test(new URL(u).protocol), 'must be a redis:// or rediss:// URL such as redis://:secret@cache.internal:6379/0')
    .optional(),
  // Object storage for builds, snapshots, logs and API-managed content (docs/decisions.md#object-storage),
  // and the bytes of it each node keeps on its disk.
  FOLIO_STORAGE_URL: z.string().optional(),
  FOLIO_CACHE_MB: integer(1, 1_048_576).default(1024),
  // Browser origins (docs sites with an API playground) allowed to call /v1 (docs/decisions.md#cors).
  FOLIO_CORS_ORIGINS: list.superRefine((origins, ctx) => {
    const bad = origins.find((origin) => !isOrigin(origin));
    if (bad) ctx.addIssue({ code: 'custom', message: `"${bad}" is not an origin: write scheme://host[:port] with no path or trailing slash, such as https://docs.example.com` });
  }).default([]),
};

/** `https://docs.example.com` or `http://127.0.0.1:8080`, exactly as a browser sends it in `Origin`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

export interface Config extends BuildLimits {
  port: number;
  host: string;
  dataDir: string;
  serviceDomain: string;
  gitUrl: string;
  gitProtocols: string[];
  buildConcurrency: number;
  /** Most builds of one organization at a time, counted over every node (0: no limit). */
  buildsPerOrg: number;
  rateLimits: RateLimits;
  /** Scheme and port used in project URLs (`url` field); no publicPort means the listening port. */
  publicScheme: 'http' | 'https';
  publicPort?: number;
  /** Projects may enable code (`allow_code`); when false, no build runs tenant code. */
  allowCode: boolean;
  /** DNS servers for custom-domain verification (`ip` or `ip:port`); empty: the system's. */
  dnsServers: string[];
  /** Seconds between two checks of every custom domain. */
  domainCheckS: number;
  /** Host names the API is served on outside the service domain: never a project's custom domain. */
  apiHosts: string[];
  /** Below this much free space in the data dir (MB), /healthz answers 503. */
  minFreeMb: number;
  /** Seconds between two checks of every connected branch's head (0: no polling). */
  syncPollS: number;
  /** Days after its last deployment a preview is removed. */
  previewTtlDays: number;
  /** Successful builds kept per project (the live one included): what promote can go back to. */
  keepBuilds: number;
  /** Event webhooks may target private, loopback and link-local addresses (tests, closed networks). */
  webhookAllowPrivate: boolean;
  /** Where the store lives: PostgreSQL at this URL, or (absent) the JSON file in the data dir. */
  databaseUrl?: string;
  /** Origins whose pages may call /v1 from a browser (CORS); empty: none. */
  corsOrigins: string[];
  /** What this node does (FOLIO_ROLES); every role unless set. */
  roles: Role[];
  /** Seconds a build's claim holds without renewal (FOLIO_BUILD_LEASE_S). */
  buildLeaseS: number;
  /** Milliseconds between two progress reports of a build (FOLIO_BUILD_PROGRESS_MS). */
  buildProgressMs: number;
  /** Pages per search index shard (FOLIO_SEARCH_SHARD_PAGES): a fast redeploy indexes again only the shards of its changed pages. */
  searchShardPages: number;
  /** Where rate limits are counted (FOLIO_REDIS_URL): Redis or Valkey at this URL, or (absent) the store. */
  redisUrl?: string;
  /** Object storage (FOLIO_STORAGE_URL); absent: builds, logs and content stay in the data dir. */
  objectStorage?: ObjectStorageSettings;
  /** Most bytes of object storage's files each node keeps on its disk (MB). */
  cacheMb: number;
  /** Tests only (FOLIO_TEST_CLOCK): the instant (epoch ms) at which the rate limiters' clock stands. */
  testClockMs?: number;
}

/**
 * FOLIO_TEST_CLOCK is for Folio's own tests, never for an installation, and so is not in the
 * settings table (content/configuration.mdx): an instant in Unix epoch milliseconds at which the
 * clock of the rate limiters and the usage chart stands still, so that a test's burst of requests
 * always falls in one window instead of the test waiting for the next minute
 * (docs/decisions.md#a-pinned-clock-for-rate-limit-tests-issue-33-item-8). It is refused unless
 * NODE_ENV=test (which the test runner sets): with it, one could spend a whole budget many times.
 */
function testClockOf(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.FOLIO_TEST_CLOCK;
  if (value === undefined) return undefined;
  if (env.NODE_ENV !== 'test') throw new ConfigError('FOLIO_TEST_CLOCK is for Folio\'s tests only (it pins the rate limiters\' clock) and is refused unless NODE_ENV=test: unset FOLIO_TEST_CLOCK');
  if (!/^\d{1,15}$/.test(value)) throw new ConfigError(`Invalid FOLIO_TEST_CLOCK=${JSON.stringify(value)}: must be an instant in Unix epoch milliseconds, such as ${Date.now()}`);
  return Number(value);
}

/**
 * `scheme://host[:port]` of a host as clients reach it (FOLIO_PUBLIC_SCHEME, FOLIO_PUBLIC_PORT or
 * the listening port), the port left out when it is the scheme's default.
 */
export function publicOrigin(config: Pick<Config, 'publicScheme' | 'publicPort' | 'port'>, host: string): string {
  const port = config.publicPort ?? config.port;
  const defaultPort = config.publicScheme === 'https' ? 443 : 80;
  return `${config.publicScheme}://${host}${port === defaultPort ? '' : `:${port}`}`;
}

/** Reads and validates the settings; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = readSettings(settingsShape, env);
  let objectStorage: ObjectStorageSettings | undefined;
  if (e.FOLIO_STORAGE_URL !== undefined) {
    const settings = parseStorageUrl(e.FOLIO_STORAGE_URL, env);
    if ('problem' in settings) throw new ConfigError(`Invalid FOLIO_STORAGE_URL=${JSON.stringify(e.FOLIO_STORAGE_URL)}: ${settings.problem}`);
    // Serving nodes hear of a new live build through PostgreSQL (LISTEN/NOTIFY).
    if (!e.FOLIO_DATABASE_URL) throw new ConfigError('FOLIO_STORAGE_URL needs FOLIO_DATABASE_URL: object storage keeps the files, PostgreSQL says which build is live and tells every node; set FOLIO_DATABASE_URL=postgres://… too');
    objectStorage = settings;
  }
  const roles = [...new Set(e.FOLIO_ROLES)];
  if (roles.length < ROLES.length && !e.FOLIO_DATABASE_URL) {
    throw new ConfigError(`Invalid FOLIO_ROLES=${JSON.stringify(env.FOLIO_ROLES)}: a node with only some roles needs FOLIO_DATABASE_URL (PostgreSQL shared by the nodes); with the JSON file one node runs every role, so leave FOLIO_ROLES unset`);
  }
  return {
    ...buildLimitsOf(e),
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.FOLIO_DATA_DIR),
    serviceDomain: e.FOLIO_SERVICE_DOMAIN,
    gitUrl: e.FOLIO_GIT_URL,
    gitProtocols: e.FOLIO_GIT_PROTOCOLS,
    buildConcurrency: e.FOLIO_BUILD_CONCURRENCY,
    buildsPerOrg: e.FOLIO_BUILDS_PER_ORG,
    rateLimits: e.FOLIO_RATE_LIMITS,
    publicScheme: e.FOLIO_PUBLIC_SCHEME,
    publicPort: e.FOLIO_PUBLIC_PORT,
    allowCode: e.FOLIO_ALLOW_CODE,
    dnsServers: e.FOLIO_DNS_SERVERS,
    domainCheckS: e.FOLIO_DOMAIN_CHECK_S,
    apiHosts: e.FOLIO_API_HOSTS,
    minFreeMb: e.FOLIO_MIN_FREE_MB,
    syncPollS: e.FOLIO_SYNC_POLL_S,
    previewTtlDays: e.FOLIO_PREVIEW_TTL_DAYS,
    keepBuilds: e.FOLIO_KEEP_BUILDS,
    webhookAllowPrivate: e.FOLIO_WEBHOOK_ALLOW_PRIVATE,
    databaseUrl: e.FOLIO_DATABASE_URL,
    corsOrigins: e.FOLIO_CORS_ORIGINS,
    roles,
    buildLeaseS: e.FOLIO_BUILD_LEASE_S,
    buildProgressMs: e.FOLIO_BUILD_PROGRESS_MS,
    searchShardPages: e.FOLIO_SEARCH_SHARD_PAGES,
    redisUrl: e.FOLIO_REDIS_URL,
    objectStorage,
    cacheMb: e.FOLIO_CACHE_MB,
    testClockMs: testClockOf(env),
  };
}

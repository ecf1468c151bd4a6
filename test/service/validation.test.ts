// Unit tests of the project validators (docs/decisions.md#projects), config parsing (§1) and scopes (§2).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/service/config.ts';
import {
  branchNameProblem,
  createProjectBody,
  hostnameProblem,
  updateProjectBody,
} from '../../src/service/project-rules.ts';
import { formatIssues as describeIssues } from '../../src/service/errors.ts';
import { parseAdminArgs, UsageError } from '../../src/service/admin-commands.ts';
import { parseScopes, SCOPES } from '../../src/service/scopes.ts';

const create = (body: unknown) => {
  const r = createProjectBody.safeParse(body);
  return r.success ? { ok: true as const, data: r.data } : { ok: false as const, message: describeIssues(r.error) };
};
const valid = { name: 'Docs', slug: 'docs-site' };

describe('project name', () => {
  it('accepts 80 code points and refuses 81, counting an emoji once', () => {
    expect(create({ ...valid, name: 'a'.repeat(80) }).ok).toBe(true);
    expect(create({ ...valid, name: 'a'.repeat(81) })).toMatchObject({ ok: false, message: expect.stringContaining('name') });
    // 🚀 is two UTF-16 units but one code point.
    expect(create({ ...valid, name: '🚀'.repeat(80) }).ok).toBe(true);
    expect(create({ ...valid, name: '🚀'.repeat(81) }).ok).toBe(false);
  });

  it('refuses empty, blank and control characters, and non-strings', () => {
    expect(create({ ...valid, name: '' }).ok).toBe(false);
    expect(create({ ...valid, name: ' \t ' })).toMatchObject({ message: 'name must not be blank' });
    expect(create({ ...valid, name: 'a\u0007b' })).toMatchObject({ message: 'name must not contain control characters' });
    expect(create({ ...valid, name: 'a\u0085b' }).ok).toBe(false);
    expect(create({ ...valid, name: 42 })).toMatchObject({ message: 'name must be a string' });
    expect(create({ slug: 'x' })).toMatchObject({ message: 'name is required' });
  });
});

describe('project slug', () => {
  it('accepts 63 characters and refuses 64', () => {
    expect(create({ ...valid, slug: 'a'.repeat(63) }).ok).toBe(true);
    expect(create({ ...valid, slug: 'a'.repeat(64) })).toMatchObject({ ok: false, message: expect.stringContaining('slug') });
  });

  it('refuses leading/trailing hyphens, upper case, other characters and xn--', () => {
    for (const slug of ['-docs', 'docs-', 'Docs', 'do_cs', 'do.cs', '', 'dócs']) {
      expect(create({ ...valid, slug }).ok, slug).toBe(false);
    }
    expect(create({ ...valid, slug: 'xn--docs' })).toMatchObject({ message: expect.stringContaining('xn--') });
    expect(create({ ...valid, slug: 'a' }).ok).toBe(true);
    expect(create({ ...valid, slug: 'a-1' }).ok).toBe(true);
  });
});

describe('source_repo', () => {
  it('accepts owner/name within GitHub limits', () => {
    for (const repo of ['acme/docs', 'a/b', `${'o'.repeat(39)}/${'n'.repeat(100)}`, 'ac-me/my.docs_v2', 'acme/.github']) {
      expect(create({ ...valid, source_repo: repo }).ok, repo).toBe(true);
    }
  });

  it('refuses URLs, .git suffixes, . and .., and over-long parts with the accepted form', () => {
    for (const repo of ['https://github.com/acme/docs', 'acme/docs.git', 'acme/.', 'acme/..', 'acme', 'acme/docs/x',
      `${'o'.repeat(40)}/docs`, `acme/${'n'.repeat(101)}`, 'ac_me/docs', '']) {
      const r = create({ ...valid, source_repo: repo });
      expect(r, repo).toMatchObject({ ok: false, message: expect.stringContaining('"owner/name"') });
    }
  });
});

describe('source_branch (git check-ref-format)', () => {
  it('accepts ordinary branch names', () => {
    for (const b of ['main', 'release/1.0', 'feature/x-y_z', 'v1.2.3', 'a@b']) expect(branchNameProblem(b), b).toBeUndefined();
  });

  it('refuses every rule break', () => {
    for (const b of ['-main', 'a..b', 'a b', 'a~b', 'a^b', 'a:b', 'a?b', 'a*b', 'a[b', 'a\\b', 'a@{b', '@', '/a', 'a/',
      'a//b', 'a.', '.a', 'a/.b', 'a.lock', 'a/b.lock/c', 'a\u0001b', 'a\u007fb', '', 'x'.repeat(256)]) {
      expect(branchNameProblem(b), JSON.stringify(b)).toBeDefined();
    }
    expect(updateProjectBody.safeParse({ source_branch: '-x' }).success).toBe(false);
  });
});

describe('custom_domain', () => {
  it('lower-cases and accepts LDH hostnames with at least two labels', () => {
    const r = updateProjectBody.safeParse({ custom_domain: 'Docs.Example.COM' });
    expect(r.success && r.data.custom_domain).toBe('docs.example.com');
    expect(hostnameProblem(`${'a'.repeat(63)}.com`)).toBeUndefined();
  });

  it('refuses ports, schemes, paths, single labels, bad labels, IPs and > 253 characters', () => {
    for (const h of ['docs.example.com:8080', 'https://docs.example.com', 'docs.example.com/x', 'localhost', '-a.com',
      'a-.com', 'a..com', `${'a'.repeat(64)}.com`, '10.0.0.1', 'a_b.com', 'docs.example.com.']) {
      expect(hostnameProblem(h), h).toBeDefined();
    }
    const long = Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.'); // 255 characters
    expect(hostnameProblem(long)).toMatch(/253/);
  });
});

describe('request bodies', () => {
  it('names unknown fields and refuses immutable ones on PATCH', () => {
    expect(create({ ...valid, colour: 'red' })).toMatchObject({ message: 'unknown field "colour"' });
    for (const field of ['slug', 'id', 'status']) {
      const r = updateProjectBody.safeParse({ [field]: 'x' });
      expect(r.success).toBe(false);
      if (!r.success) expect(describeIssues(r.error)).toBe(`${field} cannot be changed`);
    }
  });

  it('accepts null to remove optional fields on PATCH but not for name', () => {
    expect(updateProjectBody.safeParse({ custom_domain: null, source_repo: null, source_branch: null }).success).toBe(true);
    expect(updateProjectBody.safeParse({ name: null }).success).toBe(false);
  });
});

describe('configuration', () => {
  it('has the contract defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 4321, host: '127.0.0.1', serviceDomain: 'localhost', gitUrl: 'https://github.com/{owner}/{name}.git',
      gitProtocols: ['https'], buildConcurrency: 1, buildTimeoutS: 600, rateLimits: { free: 60, pro: 600, business: 6000 },
      allowCode: true,
      sandbox: 'auto', bwrapPath: 'bwrap', buildMemoryMb: 4096,
      syncPollS: 0, previewTtlDays: 14, keepBuilds: 10, webhookAllowPrivate: false,
    });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('takes FOLIO_TEST_CLOCK only under the test runner (NODE_ENV=test) and refuses it anywhere else', () => {
    expect(loadConfig({}).testClockMs).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', FOLIO_TEST_CLOCK: '1800000000000' }).testClockMs).toBe(1_800_000_000_000);
    for (const NODE_ENV of [undefined, 'production', 'development']) {
      expect(() => loadConfig({ NODE_ENV, FOLIO_TEST_CLOCK: '1800000000000' })).toThrow('FOLIO_TEST_CLOCK is for Folio\'s tests only');
    }
    expect(() => loadConfig({ NODE_ENV: 'test', FOLIO_TEST_CLOCK: 'noon' })).toThrow('Invalid FOLIO_TEST_CLOCK="noon": must be an instant in Unix epoch milliseconds');
  });

  it('reads the node roles and the build lease, and refuses some roles without PostgreSQL', () => {
    expect(loadConfig({})).toMatchObject({ roles: ['api', 'sites', 'console', 'worker'], buildLeaseS: 60 });
    const db = { FOLIO_DATABASE_URL: 'postgres://folio@db.internal/folio' };
    expect(loadConfig({ ...db, FOLIO_ROLES: 'worker', FOLIO_BUILD_LEASE_S: '30' })).toMatchObject({ roles: ['worker'], buildLeaseS: 30 });
    expect(loadConfig({ ...db, FOLIO_ROLES: ' api , sites,api' }).roles).toEqual(['api', 'sites']);
    expect(() => loadConfig({ ...db, FOLIO_ROLES: 'api,builder' })).toThrow('Invalid FOLIO_ROLES="api,builder": each role must be one of api, sites, console, worker');
    expect(() => loadConfig({ ...db, FOLIO_ROLES: ',' })).toThrow('Invalid FOLIO_ROLES=",": must name at least one role');
    expect(() => loadConfig({ FOLIO_ROLES: 'api,sites' })).toThrow('Invalid FOLIO_ROLES="api,sites": a node with only some roles needs FOLIO_DATABASE_URL');
    expect(loadConfig({ FOLIO_ROLES: 'worker,console,sites,api' }).roles).toHaveLength(4);
    expect(() => loadConfig({ FOLIO_BUILD_LEASE_S: '1' })).toThrow('Invalid FOLIO_BUILD_LEASE_S="1": must be at least 2');
  });

  it('reads FOLIO_REDIS_URL (rate limits in Redis or Valkey) and refuses anything but redis:// or rediss://', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ FOLIO_REDIS_URL: 'rediss://:secret@cache.internal:6380/2' }).redisUrl).toBe('rediss://:secret@cache.internal:6380/2');
    expect(() => loadConfig({ FOLIO_REDIS_URL: 'http://cache.internal:6379' })).toThrow('Invalid FOLIO_REDIS_URL="http://cache.internal:6379": must be a redis:// or rediss:// URL');
    expect(() => loadConfig({ FOLIO_REDIS_URL: 'cache.internal' })).toThrow('Invalid FOLIO_REDIS_URL="cache.internal"');
  });

  it('parses overrides, keeping unnamed plans at their default', () => {
    const c = loadConfig({ FOLIO_RATE_LIMITS: 'free=5', FOLIO_GIT_PROTOCOLS: 'https,file', FOLIO_SERVICE_DOMAIN: 'Docs.Example.com' });
    expect(c.rateLimits).toEqual({ free: 5, pro: 600, business: 6000 });
    expect(c.gitProtocols).toEqual(['https', 'file']);
    expect(c.serviceDomain).toBe('docs.example.com');
    expect(loadConfig({ FOLIO_ALLOW_CODE: 'false' }).allowCode).toBe(false);
    expect(loadConfig({ FOLIO_SYNC_POLL_S: '30', FOLIO_PREVIEW_TTL_DAYS: '3', FOLIO_KEEP_BUILDS: '2', FOLIO_WEBHOOK_ALLOW_PRIVATE: '1' })).toMatchObject({
      syncPollS: 30, previewTtlDays: 3, keepBuilds: 2, webhookAllowPrivate: true,
    });
  });

  it('refuses bad values naming the variable', () => {
    const bad: Record<string, string> = {
      PORT: 'http', FOLIO_RATE_LIMITS: 'gold=5', FOLIO_BUILD_CONCURRENCY: '0', FOLIO_BUILD_TIMEOUT_S: '-1',
      FOLIO_GIT_PROTOCOLS: 'ftp', FOLIO_GIT_URL: 'https://example.com/repo.git', FOLIO_SERVICE_DOMAIN: 'a b',
      FOLIO_ALLOW_CODE: 'no',
      FOLIO_SANDBOX: 'maybe', FOLIO_BUILD_MEMORY_MB: '100',
      FOLIO_CHECK_TIMEOUT_MS: 'soon', FOLIO_MIN_FREE_MB: '-5', FOLIO_DOMAIN_CHECK_S: '0', FOLIO_API_HOSTS: 'not a host',
      FOLIO_SYNC_POLL_S: '-1', FOLIO_PREVIEW_TTL_DAYS: '0', FOLIO_KEEP_BUILDS: '0', FOLIO_WEBHOOK_ALLOW_PRIVATE: 'yes',
    };
    for (const [name, value] of Object.entries(bad)) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value }), name).toThrow(name);
    }
  });
});

describe('scopes and admin arguments', () => {
  it('parses all and lists, refusing unknown scopes', () => {
    expect(parseScopes('all')).toEqual([...SCOPES]);
    expect(parseScopes('projects:read,pages:read')).toEqual(['projects:read', 'pages:read']);
    expect(() => parseScopes('projects:admin')).toThrow(/projects:admin/);
  });

  it('parses the docs/decisions.md#tenancy-and-api-keys syntax and refuses anything else', () => {
    expect(parseAdminArgs(['org', 'create', 'acme']).command).toEqual({ name: 'org create', org: 'acme', plan: 'free' });
    expect(parseAdminArgs(['key', 'create', '--org', 'acme', '--scopes', 'pages:read', '--name', 'ci', '--json'])).toEqual({
      command: { name: 'key create', org: 'acme', scopes: ['pages:read'], label: 'ci' }, json: true,
    });
    for (const argv of [['org', 'create'], ['org', 'create', 'a', '--plan', 'gold'], ['key', 'create'], ['key', 'revoke'], ['nope'],
      ['key', 'list', '--bogus', 'x']]) {
      expect(() => parseAdminArgs(argv), argv.join(' ')).toThrow(UsageError);
    }
  });
});

// docs.json and snippets through the API (docs/decisions.md#site-files-api) against the real
// server: created, replaced, read and deleted; validated as a build validates them (docs.json
// errors name docs.json:line:col and the key; a snippet's content is checked); read-only for
// repository projects; invisible to other organizations. Every answer is checked against
// src/api/openapi.json by the test client.
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContentRoot } from '../../src/site/content-check/check-root.ts';
import { DocsConfigError, formatConfigIssue, parseDocsJson } from '../../src/site/config/docs-config.ts';
import { client, orgWithKey, removeDir, request, startServer, uniqueSlug, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startServer({ env: { FOLIO_GIT_URL: 'file:///nonexistent/{owner}/{name}.git', FOLIO_GIT_PROTOCOLS: 'file' } });
  api = client(server.url, server.defaultKey);
  other = client(server.url, (await orgWithKey(server.dataDir, 'other-org')).key);
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function newProject(): Promise<{ id: string; root: string; base: string }> {
  const res = await api('POST', '/v1/projects', { body: { name: 'Docs', slug: uniqueSlug('sf') } });
  expect(res.status).toBe(201);
  return { id: res.body.id, root: path.join(server.dataDir, 'projects', res.body.id, 'root'), base: `/v1/projects/${res.body.id}` };
}

const DOCS = { name: 'Acme Docs', colors: { primary: '#0f766e' }, navigation: { groups: [{ group: 'Start', pages: ['index', 'quickstart'] }] }, interaction: { drilldown: false } };

describe('docs.json', () => {
  it('is created (201), replaced (200), read with its warnings, and deleted; the stored file builds as the API said', async () => {
    const p = await newProject();
    expect((await api('GET', `${p.base}/docs-json`)).status).toBe(404);
    expect((await api('POST', `${p.base}/pages`, { body: { path: 'index', title: 'Home', content: 'Hello.\n' } })).status).toBe(201);
    const created = await api('PUT', `${p.base}/docs-json`, { body: DOCS });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ path: 'docs.json', content: DOCS, source: 'api' });
    expect(created.body.warnings).toEqual([
      expect.stringMatching(/^docs\.json:\d+:3: interaction: not supported by Folio yet: ignored$/),
      'docs.json: navigation.groups.0.pages.1: no page "quickstart" yet: it is left out of the navigation until it exists',
    ]);
    expect(JSON.parse(await readFile(path.join(p.root, 'docs.json'), 'utf8'))).toEqual(DOCS);
    // The whole-root check of a build reads the same file without a problem.
    expect((await checkContentRoot(p.root)).problems).toEqual([]);

    const replaced = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Acme' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.warnings).toEqual([]);
    const read = await api('GET', `${p.base}/docs-json`);
    expect(read.body).toMatchObject({ path: 'docs.json', content: { name: 'Acme' }, warnings: [] });

    expect((await api('DELETE', `${p.base}/docs-json`)).status).toBe(204);
    expect(existsSync(path.join(p.root, 'docs.json'))).toBe(false);
    expect((await api('DELETE', `${p.base}/docs-json`)).status).toBe(404);
  });

  it('refuses an invalid value of a supported key with 400 naming docs.json:line:col and the key, and changes nothing', async () => {
    const p = await newProject();
    expect((await api('PUT', `${p.base}/docs-json`, { body: { name: 'Kept' } })).status).toBe(201);
    const res = await api('PUT', `${p.base}/docs-json`, { body: { name: 'New', colors: { primary: 'red;}body{display:none' }, redirects: [{ source: '/a', destination: 'javascript:alert(1)' }] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.message).toMatch(/^docs\.json has 2 problems: docs\.json:4:5: colors\.primary: must be a CSS colour/);
    expect(res.body.message).toContain('docs.json:9:7: redirects.0.destination: must be a path starting with "/"');
    expect(JSON.parse(await readFile(path.join(p.root, 'docs.json'), 'utf8'))).toEqual({ name: 'Kept' });
  });
});

describe('docs.json with $ref', () => {
  it('is read as a build reads it: a referenced file\'s warnings name it; a reference out of the project is refused (400) and changes nothing', async () => {
    const p = await newProject();
    expect((await api('PUT', `${p.base}/docs-json`, { body: { name: 'Kept' } })).status).toBe(201);
    // A file beside docs.json, as a repository has them (the API writes only docs.json and snippets).
    await mkdir(path.join(p.root, 'config'), { recursive: true });
    await writeFile(path.join(p.root, 'config/nav.json'), '{\n  "groups": [{ "group": "Start", "weight": 2, "pages": ["index"] }]\n}\n');
    const split = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Split', navigation: { $ref: './config/nav.json' } } });
    expect(split.status).toBe(200);
    expect(split.body.warnings).toContain('config/nav.json:2:34: groups.0.weight: unknown key: ignored');
    const out = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Out', navigation: { $ref: '../../secret.json' } } });
    expect(out.status).toBe(400);
    expect(out.body.message).toBe('docs.json:4:5: navigation.$ref: "../../secret.json" leads outside the repository: a reference must stay inside it');
    expect(JSON.parse(await readFile(path.join(p.root, 'docs.json'), 'utf8'))).toEqual({ name: 'Split', navigation: { $ref: './config/nav.json' } });
  });
});

describe('docs.json with $ref, written by a hostile repository', () => {
  // Each file nested 45 levels, referencing the next: every level used to copy its whole key path
  // for each value, and the nesting restarted in each file, so 30 such files ahead of a 4 MB list
  // made one read of docs.json stall the server for minutes (docs/decisions.md, "Second security
  // review of issue 25").
  it('counts nesting across referenced files: a chain of deep files is refused (400) at the level that goes past 200, naming that file', async () => {
    const p = await newProject();
    expect((await api('PUT', `${p.base}/docs-json`, { body: { name: 'Kept' } })).status).toBe(201);
    await mkdir(path.join(p.root, 'deep'), { recursive: true });
    const nest = (inner: string) => `${'{"a":'.repeat(45)}${inner}${'}'.repeat(45)}`;
    for (let i = 0; i < 5; i++) await writeFile(path.join(p.root, `deep/f${i}.json`), nest(i < 4 ? `{"$ref": "./f${i + 1}.json"}` : '[0, 0, 0]'));
    const [res, health] = await Promise.all([api('PUT', `${p.base}/docs-json`, { body: { name: 'Deep', navigation: { $ref: './deep/f0.json' } } }), api('GET', '/healthz')]);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^deep\/f4\.json:1:\d+: (a\.){19}a: nested more than 200 levels deep \(counting the levels of the files that reference this one\)$/);
    expect(health.status).toBe(200);
    expect(JSON.parse(await readFile(path.join(p.root, 'docs.json'), 'utf8'))).toEqual({ name: 'Kept' });
  });

  it('reads at most 4 MiB of referenced JSON in all: a 3 MiB list used twice is refused (400) at its second use', async () => {
    const p = await newProject();
    // Each use is parsed and walked again on the event loop of a read of docs.json: 32 MiB of uses
    // held it for 4 to 6 seconds per read.
    await mkdir(p.root, { recursive: true });
    await writeFile(path.join(p.root, 'big.json'), `[${new Array(1_500_000).fill(0).join(',')}]`);
    const res = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Fan', extra: [{ $ref: 'big.json' }, { $ref: 'big.json' }] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^docs\.json:\d+:\d+: extra\.1\.\$ref: references read more than 4 MiB of JSON in all \(each use of a file counts\)$/);
  });

  it('a docs.json larger than 4 MiB is not parsed: read as empty, its warning saying why', async () => {
    const p = await newProject();
    await mkdir(p.root, { recursive: true });
    await writeFile(path.join(p.root, 'docs.json'), JSON.stringify({ name: 'Huge', filler: new Array(1_100_000).fill(1000) }));
    const res = await api('GET', `${p.base}/docs-json`);
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual({});
    expect(res.body.warnings).toEqual(['docs.json:1:1: (top level): larger than 4 MiB: a site file may be at most that large']);
  });

  it('lists at most 1,000 unknown keys and 100 invalid values, counting the rest in one line', async () => {
    const p = await newProject();
    await mkdir(p.root, { recursive: true });
    // Each listed one is placed in the text on the event loop, and all were sent back: a 3.6 MB
    // docs.json of 300,000 invalid groups held the server 14 s and answered tens of MB.
    const groups = (n: number, group: unknown) => new Array(n).fill(0).map(() => ({ group, pages: [], note: 'x' }));
    await writeFile(path.join(p.root, 'docs.json'), JSON.stringify({ name: 'Many', navigation: { groups: groups(1_500, 'Start') } }, null, 2));
    const read = await api('GET', `${p.base}/docs-json`);
    expect(read.body.warnings).toHaveLength(1_001);
    expect(read.body.warnings.at(-1)).toBe('docs.json:1:1: (top level): and 500 more unknown keys, not listed: ignored');
    const invalid = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Bad', navigation: { groups: groups(500, 7) } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/^docs\.json has 101 problems: /);
    await writeFile(path.join(p.root, 'docs.json'), JSON.stringify({ name: 'Bad', navigation: { groups: groups(500, 7) } }, null, 2));
    const warnings = (await api('GET', `${p.base}/docs-json`)).body.warnings;
    expect(warnings).toHaveLength(101);
    expect(warnings.at(-1)).toBe('docs.json:1:1: (top level): and 400 more problems, not listed');
  });

  it('stops at 100 problems with references, saying the rest are not listed', async () => {
    const p = await newProject();
    const res = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Many', extra: new Array(10_000).fill({ $ref: 1 }) } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^docs\.json has 101 problems: docs\.json:\d+:\d+: extra\.0\.\$ref: must be the path of a JSON file/);
    expect(res.body.message).not.toContain('extra.100.');
    expect((await api('GET', `${p.base}/docs-json`)).status).toBe(404);
  });
});

describe('docs.json problems cost time in proportion to the text', () => {
  it('refuses a docs.json with a 17,000-character key of 4,000 items at once, pointing at the problem, and the server keeps answering', async () => {
    const p = await newProject();
    expect((await api('PUT', `${p.base}/docs-json`, { body: { name: 'Kept' } })).status).toBe(201);
    // Every item's key path used to repeat the key: V8 hashes strings that long by length alone,
    // so the positions of a problem took quadratic time on the event loop (a minute for this body).
    const hostile = { name: 'New', colors: { primary: 'red;}body{display:none' }, ['k'.repeat(17_000)]: new Array(4_000).fill(0) };
    const [res, health] = await Promise.all([api('PUT', `${p.base}/docs-json`, { body: hostile }), api('GET', '/healthz')]);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('docs.json:4:5: colors.primary: must be a CSS colour');
    expect(health.status).toBe(200);
    expect(JSON.parse(await readFile(path.join(p.root, 'docs.json'), 'utf8'))).toEqual({ name: 'Kept' });
    expect((await api('GET', `${p.base}/docs-json`)).body.content).toEqual({ name: 'Kept' });
  });
});

describe('docs.json is checked in the check processes, never on the server\'s event loop', () => {
  // Parsing, `$ref`s and the schema of a docs.json of 300,000 invalid values took seconds on the
  // event loop of a read or a write through the API, and of the check before each deployment
  // (docs/decisions.md, "docs.json in the check processes").
  const invalidGroups = (n: number) => ({ name: 'Many', navigation: { groups: new Array(n).fill({ group: 7 }) } });

  /** The problems this process finds in `text`: what the API must answer, word for word. */
  const problemsOf = (text: string) => {
    try {
      parseDocsJson(text);
    } catch (error) {
      if (error instanceof DocsConfigError) return error.issues.map(formatConfigIssue);
      throw error;
    }
    throw new Error('expected problems');
  };

  /** `pending` is still unanswered after three /healthz answers in a row: the server kept answering while it checked. */
  async function answersMeanwhile<T>(pending: Promise<T>, url: string): Promise<T> {
    let settled = false;
    const done = pending.finally(() => {
      settled = true;
    });
    for (let i = 0; i < 3; i++) expect((await request(url, 'GET', '/healthz')).status).toBe(200);
    expect(settled).toBe(false);
    return done;
  }

  it('a repository\'s docs.json of 40,000 invalid values is read with the warnings of a build, and a write of it refused (400) with its problems, while /healthz keeps answering', async () => {
    const p = await newProject();
    expect((await api('PUT', `${p.base}/docs-json`, { body: { name: 'Kept' } })).status).toBe(201);
    const hostile = invalidGroups(40_000);
    const stored = `${JSON.stringify(hostile, null, 2)}\n`;
    const expected = problemsOf(stored);
    expect(expected).toHaveLength(101);

    const put = await answersMeanwhile(api('PUT', `${p.base}/docs-json`, { body: hostile }), server.url);
    expect(put.status).toBe(400);
    expect(put.body).toEqual({ error: 'invalid_request', message: `docs.json has 101 problems: ${expected.slice(0, 10).join('; ')}` });
    expect(JSON.parse(await readFile(path.join(p.root, 'docs.json'), 'utf8'))).toEqual({ name: 'Kept' });

    await writeFile(path.join(p.root, 'docs.json'), stored);
    const read = await answersMeanwhile(api('GET', `${p.base}/docs-json`), server.url);
    expect(read.status).toBe(200);
    expect(read.body.warnings).toEqual(expected);
    expect(read.body.warnings.at(-1)).toBe('docs.json:1:1: (top level): and 39900 more problems, not listed');
  });

  describe('past the time limit of a check', () => {
    let limited: TestServer;
    let limitedApi: ReturnType<typeof client>;
    beforeAll(async () => {
      // 200 ms rather than 1.5 s, so that a docs.json within the API's 2 MiB body takes longer.
      limited = await startServer({ env: { FOLIO_CHECK_TIMEOUT_MS: '200' } });
      limitedApi = client(limited.url, limited.defaultKey);
    });
    afterAll(async () => {
      await limited.stop();
      await removeDir(limited.dataDir);
    });

    it('a write is refused (422 content_too_complex) naming docs.json, and a repository\'s is read with that warning, while /healthz keeps answering', async () => {
      const created = await limitedApi('POST', '/v1/projects', { body: { name: 'Docs', slug: uniqueSlug('sf') } });
      const base = `/v1/projects/${created.body.id}`;
      const root = path.join(limited.dataDir, 'projects', created.body.id, 'root');
      expect((await limitedApi('PUT', `${base}/docs-json`, { body: { name: 'Kept' } })).status).toBe(201);

      const put = await answersMeanwhile(limitedApi('PUT', `${base}/docs-json`, { body: invalidGroups(50_000) }), limited.url);
      expect(put.status).toBe(422);
      expect(put.body).toEqual({ error: 'content_too_complex', message: 'docs.json is too complex to check within 0.2 s: shorten it, or fix its invalid values' });
      expect(JSON.parse(await readFile(path.join(root, 'docs.json'), 'utf8'))).toEqual({ name: 'Kept' });

      // 3.6 MB, under the 4 MiB of a site file: the schema's work, not the size, is refused.
      await writeFile(path.join(root, 'docs.json'), JSON.stringify(invalidGroups(300_000)));
      const read = await answersMeanwhile(limitedApi('GET', `${base}/docs-json`), limited.url);
      expect(read.status).toBe(200);
      expect(read.body.warnings).toEqual(['docs.json:1:1: (top level): too complex to check within 0.2 s: shorten it, or fix its invalid values']);
      expect(read.body.content.name).toBe('Many');

      // The check processes recover: the next write is checked as usual.
      expect((await limitedApi('PUT', `${base}/docs-json`, { body: { name: 'Fine' } })).status).toBe(200);
    });
  });
});

describe('snippets', () => {
  it('are created (201), replaced (200), listed, read and deleted; pages may then include them', async () => {
    const p = await newProject();
    expect((await api('GET', `${p.base}/snippets`)).body).toEqual({ data: [] });
    const created = await api('PUT', `${p.base}/snippets/api/auth.mdx`, { body: { content: 'Send `Bearer {key}`.\n' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ path: 'api/auth.mdx', content: 'Send `Bearer {key}`.\n', source: 'api' });
    expect(await readFile(path.join(p.root, '_snippets/api/auth.mdx'), 'utf8')).toBe('Send `Bearer {key}`.\n');
    expect((await api('PUT', `${p.base}/snippets/api/auth.mdx`, { body: { content: 'Send a key.\n' } })).status).toBe(200);
    expect((await api('PUT', `${p.base}/snippets/intro.md`, { body: { content: 'Intro.\n' } })).status).toBe(201);
    const list = await api('GET', `${p.base}/snippets`);
    expect(list.body.data.map((s: { path: string }) => s.path)).toEqual(['api/auth.mdx', 'intro.md']);
    expect((await api('GET', `${p.base}/snippets/api/auth.mdx`)).body.content).toBe('Send a key.\n');
    const page = await api('POST', `${p.base}/pages`, { body: { path: 'index', title: 'Home', content: '<Snippet file="api/auth.mdx" />\n' } });
    expect(page.status).toBe(201);
    expect((await api('DELETE', `${p.base}/snippets/api/auth.mdx`)).status).toBe(204);
    expect(existsSync(path.join(p.root, '_snippets/api'))).toBe(false);
    expect((await api('GET', `${p.base}/snippets/api/auth.mdx`)).status).toBe(404);
  });

  it('checks content as a build does (400 naming content:line:col) and refuses unsafe or unusual paths', async () => {
    const p = await newProject();
    const bad = await api('PUT', `${p.base}/snippets/bad.mdx`, { body: { content: 'Fine.\n\n<Snippet file="missing.mdx" />\n' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^content:3:1: Snippet file "missing\.mdx"/);
    expect((await api('PUT', `${p.base}/snippets/script.mdx`, { body: { content: '<script>alert(1)</script>\n' } })).status).toBe(400);
    for (const bad of ['Upper.mdx', 'notes.txt', '_hidden/x.mdx', '-lead.mdx']) {
      const res = await api('PUT', `${p.base}/snippets/${bad}`, { body: { content: 'x\n' } });
      expect(res.status, bad).toBe(400);
    }
    for (const escape of ['..%2F..%2Fdocs.json', '.hidden.mdx', '%2e%2e/docs.json']) {
      expect([400, 404], escape).toContain((await api('GET', `${p.base}/snippets/${escape}`)).status);
    }
    expect((await api('PUT', `${p.base}/snippets/x.mdx`, { body: { content: 1 } })).body.message).toBe('content must be a string');
  });

  it('never follows a link placed in _snippets/', async () => {
    const p = await newProject();
    await mkdir(path.join(p.root, '_snippets'), { recursive: true });
    await writeFile(path.join(server.dataDir, 'outside.mdx'), 'SECRET\n');
    await symlink(path.join(server.dataDir, 'outside.mdx'), path.join(p.root, '_snippets/link.mdx'));
    const res = await api('GET', `${p.base}/snippets/link.mdx`);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('SECRET');
  });
});

describe('access', () => {
  it('other organizations see neither, and repository projects are read-only (409 source_managed)', async () => {
    const p = await newProject();
    expect((await api('PUT', `${p.base}/docs-json`, { body: { name: 'Mine' } })).status).toBe(201);
    expect((await other('GET', `${p.base}/docs-json`)).status).toBe(404);
    expect((await other('PUT', `${p.base}/docs-json`, { body: { name: 'Theirs' } })).status).toBe(404);
    expect((await other('GET', `${p.base}/snippets`)).status).toBe(404);
    expect((await api('PATCH', `/v1/projects/${p.id}`, { body: { source_repo: 'acme/docs' } })).status).toBe(200);
    const refused = await api('PUT', `${p.base}/docs-json`, { body: { name: 'Changed' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('source_managed');
    expect((await api('PUT', `${p.base}/snippets/a.mdx`, { body: { content: 'x\n' } })).status).toBe(409);
    expect((await api('GET', `${p.base}/docs-json`)).body).toMatchObject({ source: 'repository', content: { name: 'Mine' } });
  });
});

describe('page frontmatter through the pages API', () => {
  it('writes the keys the site reads, answers them, removes them with null and keeps other keys', async () => {
    const p = await newProject();
    const created = await api('POST', `${p.base}/pages`, {
      body: { path: 'guides/install', title: 'Install', content: 'Steps.\n', frontmatter: { sidebarTitle: 'Setup', icon: 'download', tag: 'NEW', order: 2, hidden: false } },
    });
    expect(created.status).toBe(201);
    expect(created.body.frontmatter).toEqual({ sidebarTitle: 'Setup', icon: 'download', tag: 'NEW', order: 2, hidden: false });
    const file = path.join(p.root, 'content/guides/install.mdx');
    expect(await readFile(file, 'utf8')).toBe('---\ntitle: Install\nsidebarTitle: Setup\nicon: download\ntag: NEW\norder: 2\nhidden: false\n---\nSteps.\n');
    const updated = await api('PATCH', `${p.base}/pages/guides/install`, { body: { frontmatter: { tag: null, url: 'https://example.com/install' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.frontmatter).toEqual({ sidebarTitle: 'Setup', icon: 'download', order: 2, hidden: false, url: 'https://example.com/install' });
    expect((await api('GET', `${p.base}/pages/guides/install`)).body.frontmatter).toEqual(updated.body.frontmatter);
    for (const [frontmatter, message] of [
      [{ icon: '<svg onload=x>' }, 'frontmatter.icon must be an icon name'],
      [{ url: 'javascript:alert(1)' }, 'frontmatter.url must be an http(s) URL'],
      [{ order: 'first' }, 'frontmatter.order must be a number'],
      [{ mode: 'wide' }, 'mode'],
    ] as const) {
      const res = await api('PATCH', `${p.base}/pages/guides/install`, { body: { frontmatter } });
      expect(res.status, message).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });
});

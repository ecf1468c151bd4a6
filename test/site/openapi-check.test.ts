// OpenAPI problems fail a build in its check phase, before Astro starts, naming the file, line
// and column (docs/decisions.md#openapi-reference-pages): a truly broken document, a remote spec
// URL. An `openapi:` frontmatter naming an operation no spec has is a warning: the page shows its
// own content, as on Mintlify (docs/decisions.md, "What Mintlify deploys, Folio deploys").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContentRoot } from '../../src/site/content-check/check-root.ts';
import { buildFixture, buildRoot, checkSite, makeContentRoot, type BuiltSite } from './helpers.ts';
import { BROKEN_30_YAML, BILLING_31_YAML } from '../openapi/mintlify-fixtures.ts';

let site: BuiltSite;

beforeAll(async () => {
  site = await buildFixture({
    'content/index.mdx': '# Home\n',
    'content/missing-op.mdx': '---\ntitle: Missing\nopenapi: GET /nowhere\n---\n',
    'content/bad-form.mdx': '---\nopenapi: fetch the invoices\n---\n',
    'content/wrong-file.mdx': '---\nopenapi: billing.yaml DELETE /invoices\n---\n',
    'billing.yaml': BILLING_31_YAML,
    'specs/broken.yaml': BROKEN_30_YAML,
    'docs.json': '{\n  "api": { "openapi": "specs/broken.yaml" },\n  "navigation": [\n    { "group": "Remote", "openapi": "https://example.com/openapi.json", "pages": [] }\n  ]\n}\n',
  });
}, 120_000);

describe('the OpenAPI check before the build', () => {
  it('fails the build as content_invalid without running Astro', () => {
    expect(site.result.ok).toBe(false);
    expect(site.result.error?.code).toBe('content_invalid');
    expect(site.result.log.some((line) => /astro|building static|generating static routes/i.test(line) && !line.startsWith('error:'))).toBe(false);
  });

  it('points at the line and column of the offending node in the author\'s file', () => {
    const broken = site.result.error!.problems.find((p) => p.file === 'specs/broken.yaml');
    expect(broken).toMatchObject({ line: 9, column: 7 });
    expect(broken!.message).toContain('specs/broken.yaml:9:7 at #/paths/~1things/get/responses');
  });

  it('refuses a remote spec where docs.json names it, saying builds never use the network', () => {
    expect(site.result.error!.message).toContain('OpenAPI file "https://example.com/openapi.json": builds never use the network');
    expect(site.result.error!.problems.find((p) => p.message.includes('https://example.com/'))).toMatchObject({ file: 'docs.json', line: 4, column: 37 });
  });

  it('reports the same problems with npm run check:site, one file:line:col line each, without building', async () => {
    const { code, lines } = await checkSite(site.root);
    expect(code).toBe(1);
    expect(lines).toEqual(expect.arrayContaining([
      'specs/broken.yaml:9:7: Invalid OpenAPI document specs/broken.yaml:',
      expect.stringMatching(/^docs\.json:4:37: OpenAPI file "https:\/\/example\.com\/openapi\.json": builds never use the network, so a spec cannot be read from a URL; save it in the content root/),
      '      content/missing-op.mdx:3:1: openapi: no OpenAPI file of the content root has GET /nowhere: the page shows its own content',
    ]));
    expect(lines.at(-1)).toBe('4 pages, 2 refused, 3 warnings');
  }, 120_000);

  it('names in a warning the page and line of frontmatter that names no operation, or one its file lacks', () => {
    expect(site.result.error!.problems.map((p) => p.file).toSorted()).toEqual(['docs.json', 'specs/broken.yaml']);
    expect(site.result.warnings).toEqual(expect.arrayContaining([
      '[folio] warning: content/missing-op.mdx:3:1: openapi: no OpenAPI file of the content root has GET /nowhere: the page shows its own content',
      '[folio] warning: content/bad-form.mdx:2:1: openapi: "fetch the invoices" names no operation (write "GET /users/{id}", "openapi.yaml GET /users/{id}" or "webhook user.created"): the page shows its own content',
      '[folio] warning: content/wrong-file.mdx:2:1: openapi: billing.yaml has no operation DELETE /invoices, nor has any other OpenAPI file of the content root: the page shows its own content',
    ]));
  });
});

describe('the OpenAPI check of a site without specs', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-openapi-none-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('still warns of a page naming an operation though no spec exists (the check is skipped only when no page names one)', async () => {
    fs.mkdirSync(path.join(root, 'content'));
    fs.writeFileSync(path.join(root, 'content/index.mdx'), '# Home\n');
    expect((await checkContentRoot(root)).warnings).toEqual([]);
    fs.writeFileSync(path.join(root, 'content/users.mdx'), '---\ntitle: Users\nopenapi: GET /users\n---\n');
    const report = await checkContentRoot(root);
    expect(report.problems).toEqual([]);
    expect(report.warnings).toEqual([
      { file: 'content/users.mdx', line: 3, column: 1, message: 'openapi: no OpenAPI file of the content root has GET /users: the page shows its own content' },
    ]);
    // A quoted path is read without its quotes (generated Mintlify pages write it so).
    fs.writeFileSync(path.join(root, 'content/users.mdx'), `---\ntitle: Users\nopenapi: "DELETE '/users/{id}'"\n---\n`);
    expect((await checkContentRoot(root)).warnings).toEqual([
      { file: 'content/users.mdx', line: 3, column: 1, message: 'openapi: no OpenAPI file of the content root has DELETE /users/{id}: the page shows its own content' },
    ]);
  });
});

describe('the OpenAPI check when pages have problems too', () => {
  it('reports the pages\' and the specs\' problems in one run of npm run check:site, and the build still fails', async () => {
    const root = makeContentRoot({
      'content/index.mdx': '# Home\n\n<Carousel />\n',
      'content/users.mdx': '---\ntitle: Users\nopenapi: GET /users\n---\n',
      'docs.json': '{\n  "api": { "openapi": "specs/missing.yaml" }\n}\n',
    });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^ {6}content\/index\.mdx:3:1: unknown component <Carousel>/),
      expect.stringMatching(/^docs\.json:2:\d+: .*specs\/missing\.yaml/),
      expect.stringMatching(/^ {6}content\/users\.mdx:3:1: openapi: no OpenAPI file of the content root has GET \/users/),
    ]));
    const built = await buildRoot(root);
    expect(built.result.ok).toBe(false);
    expect(built.result.error?.code).toBe('content_invalid');
    expect(built.result.error!.problems.map((p) => p.file)).toEqual(['docs.json']);
    expect(built.result.warnings).toHaveLength(2);
  }, 120_000);

  it('waits for a root it cannot read safely: a link in the content root is reported alone', async () => {
    const root = makeContentRoot({
      'content/index.mdx': '# Home\n',
      'content/users.mdx': '---\ntitle: Users\nopenapi: GET /users\n---\n',
    });
    fs.symlinkSync('/etc/hostname', path.join(root, 'content/linked.mdx'));
    const { problems } = await checkContentRoot(root);
    expect(problems).toEqual([{ file: 'content/linked.mdx', line: 1, column: 1, message: 'a symbolic link is not allowed in a content root' }]);
  });
});

// docs.json as Mintlify reads it (docs/decisions.md#docsjson-as-mintlify-reads-it): `$ref` anywhere,
// resolved relative to the file holding it; redirects normalized as Mintlify accepts them; navbar
// links of a service without a label. Seen as a user sees them: `npm run check:site` output, a real
// build, and the built site served by Folio's hosting layer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, buildRoot, checkSite, makeContentRoot, serveWithFolio, sidebarOf, type BuiltSite } from './helpers.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `file:line:col` of the first `"key"` after `after` in `text` (what a message must name); `"key": value` with `value`. */
function at(file: string, text: string, key: string, after = '', value?: string): string {
  const offset = value === undefined ? text.indexOf(`"${key}"`, after ? text.indexOf(after) : 0) : text.indexOf(`"${key}": ${JSON.stringify(value)}`);
  if (offset < 0) throw new Error(`no "${key}" in ${file}`);
  const before = text.slice(0, offset).split('\n');
  return `${file}:${before.length}:${before.at(-1)!.length + 1}`;
}

// A repository split the way real Mintlify repositories split docs.json: a language, the redirects,
// the header and the appearance each in a file of their own, one of them referencing another.
const DOCS_JSON = json({
  name: 'Orchard Docs',
  theme: 'mint',
  navigation: {
    languages: [
      { language: 'en', groups: [{ group: 'Start', pages: ['index', 'quickstart'] }] },
      { $ref: './i18n/es.json' },
    ],
  },
  navbar: { $ref: './config/navbar.json' },
  appearance: { $ref: './config/appearance.json', strict: true },
  // A list has no keys to merge `permanent` into: ignored, with a warning.
  redirects: { $ref: './config/redirects.json', permanent: false },
  // Mintlify's "auth": the playground for signed-in readers only.
  api: { playground: { display: 'auth' } },
});
const ES_JSON = json({ language: 'es', groups: { $ref: './groups/es.json' } });
// Nested: resolved relative to i18n/, the folder of the file holding the reference.
// A page named as its file is, beyond ASCII (Mintlify lists such pages too).
const ES_GROUPS_JSON = json([{ group: 'Inicio', weight: 3, pages: ['es/index', 'es/guía'] }]);
const NAVBAR_JSON = json({ links: [{ type: 'github', href: 'https://github.com/orchard-example/orchard' }], primary: { type: 'discord', href: 'https://discord.gg/orchard-example' } });
const APPEARANCE_JSON = json({ default: 'dark', strict: false });
const REDIRECTS_JSON = json([
  { source: 'old-start', destination: 'quickstart' },
  { source: '/setup#install', destination: '/quickstart' },
  { source: '/guides/first steps', destination: '/quickstart' },
  { source: '/søk', destination: '/' },
  { source: '/find?q=apples', destination: '/quickstart' },
]);

const FILES = {
  'docs.json': DOCS_JSON,
  'i18n/es.json': ES_JSON,
  'i18n/groups/es.json': ES_GROUPS_JSON,
  'config/navbar.json': NAVBAR_JSON,
  'config/appearance.json': APPEARANCE_JSON,
  'config/redirects.json': REDIRECTS_JSON,
  'index.mdx': '---\ntitle: Orchard\n---\n\nWelcome to the orchard.\n',
  'quickstart.mdx': '---\ntitle: Quickstart\n---\n\nPlant a tree.\n',
  'es/index.mdx': '---\ntitle: Huerto\n---\n\nBienvenido al huerto.\n',
  'es/guía.mdx': '---\ntitle: Guía del huerto\n---\n\nRiega cada día.\n',
};

const EXPECTED_WARNINGS = [
  `${at('docs.json', DOCS_JSON, 'permanent')}: warning: redirects.permanent: ignored: "./config/redirects.json" holds a list, so the keys beside "$ref" (permanent) have nothing to be merged into`,
  `${at('i18n/groups/es.json', ES_GROUPS_JSON, 'weight')}: warning: 0.weight: unknown key: ignored`,
  `${at('config/redirects.json', REDIRECTS_JSON, 'source', '', '/setup#install')}: warning: 1.source: "#install" dropped: browsers never send the #fragment of an address, so the rule matches "/setup"`,
  `${at('config/redirects.json', REDIRECTS_JSON, 'source', '', '/find?q=apples')}: warning: 4.source: ignored: a redirect matches a path, never a query such as "?q=apples", so this rule is left out`,
  `${at('docs.json', DOCS_JSON, 'display')}: warning: api.playground.display: "auth" shows the playground to signed-in readers only, and Folio's readers never sign in: no playground is shown ("none")`,
];

describe('docs.json split with $ref', () => {
  it('check:site reads every referenced file, nested ones relative to their own folder, and names the referenced file in its warnings', async () => {
    const { code, lines } = await checkSite(makeContentRoot(FILES), ['--all-warnings']);
    expect(lines.filter((l) => !/^\d+ pages/.test(l))).toEqual(EXPECTED_WARNINGS);
    expect(lines.at(-1)).toBe('4 pages, 0 refused, 5 warnings');
    expect(code).toBe(0);
  });

  let site: BuiltSite;
  let served: Awaited<ReturnType<typeof serveWithFolio>>;
  beforeAll(async () => {
    site = await buildRoot(makeContentRoot(FILES));
    if (!site.result.ok) throw new Error(site.result.log.join('\n'));
    served = await serveWithFolio(site.out);
  }, 240_000);
  afterAll(() => served?.close());

  it('builds the language, header and appearance the referenced files hold, keys beside "$ref" winning', () => {
    for (const warning of EXPECTED_WARNINGS) expect(site.result.log).toContain(`[folio] warning: ${warning.replace(': warning: ', ': ')}`);
    const es = site.read('es/index.html');
    expect(es).toMatch(/<html[^>]* lang="es"/);
    expect(es).toContain('Inicio');
    expect(sidebarOf(es)).toContain('Guía del huerto');
    expect(site.read('es/guía/index.html')).toContain('Riega cada día.');
    const home = site.read('index.html');
    // The language switcher leads to the Spanish pages.
    expect(home).toMatch(/href="\/es\/"/);
    // A GitHub link and a Discord button without a label get the service's name.
    expect(home).toMatch(/<a class="navbar-link"[^>]*href="https:\/\/github.com\/orchard-example\/orchard"[^>]*>[^<]*(<[^>]+>[^<]*)*GitHub/);
    expect(home).toMatch(/<a class="navbar-primary" href="https:\/\/discord.gg\/orchard-example"[^>]*>Discord<\/a>/);
    // appearance.json says dark and not strict; `strict: true` beside the reference wins.
    expect(home).toMatch(/<html[^>]* data-appearance="dark"/);
    expect(home).toMatch(/<html[^>]* data-appearance-strict/);
  });

  it('answers the referenced redirects as Mintlify reads them: a "/" added, the fragment dropped, characters encoded as a browser sends them', async () => {
    const get = (p: string) => fetch(`${served.url}${p}`, { redirect: 'manual' });
    const cases: Array<[string, string]> = [
      ['/old-start', '/quickstart'],
      ['/setup', '/quickstart'],
      ['/guides/first%20steps', '/quickstart'],
      [`/${encodeURIComponent('søk')}`, '/'],
    ];
    for (const [from, to] of cases) {
      const res = await get(from);
      expect(res.status, from).toBe(308);
      expect(res.headers.get('location'), from).toBe(to);
    }
    // The rule with a query was left out: the path is the site's own 404.
    expect((await get('/find?q=apples')).status).toBe(404);
  });
});

describe('navigation given by $ref', () => {
  it('a navigation entry naming no page is reported where it is written: in the referenced file', async () => {
    const NAV_JSON = json({ groups: [{ group: 'Start', pages: ['index', 'guides/missing'] }] });
    const site = await buildFixture({
      'docs.json': json({ name: 'Nav', navigation: { $ref: './config/nav.json' } }),
      'config/nav.json': NAV_JSON,
      'index.mdx': '# Home\n',
    });
    const where = at('config/nav.json', NAV_JSON, 'guides/missing').replace(/:\d+$/, '');
    // A failure or a warning (whichever a build makes of a missing page), it names config/nav.json.
    const said = [...site.result.log, site.result.error?.message ?? ''].join('\n');
    expect(said).toMatch(new RegExp(`${where}:\\d+: groups\\.0\\.pages\\.1: no page "guides/missing"`));
  }, 240_000);
});

describe('mint.json redirects', () => {
  it('are read as Mintlify reads them too: a "/" added, a fragment dropped with a warning', async () => {
    const MINT_JSON = json({ name: 'Old', navigation: [{ group: 'Start', pages: ['index'] }], redirects: [{ source: 'old', destination: 'index' }, { source: '/intro#top', destination: '/' }] });
    const { code, lines } = await checkSite(makeContentRoot({ 'mint.json': MINT_JSON, 'index.mdx': '# Home\n' }), ['--all-warnings']);
    expect(lines).toEqual([
      `${at('mint.json', MINT_JSON, 'source', '', '/intro#top')}: warning: redirects.1.source: "#top" dropped: browsers never send the #fragment of an address, so the rule matches "/intro"`,
      '1 pages, 0 refused, 1 warnings',
    ]);
    expect(code).toBe(0);
  });
});

describe('$ref that cannot be followed', () => {
  it('check:site refuses loops, paths out of the repository, links, URLs, missing files and runaway expansion, all in one run, naming file, line, column and key', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.json'), '{"language": "xx"}\n');
    const docsJson = json({
      name: 'Refused',
      navigation: { $ref: './nav/a.json' },
      navbar: { $ref: `../${path.basename(outside)}/secret.json` },
      footer: { $ref: './config/linked.json' },
      banner: { $ref: 'https://config.example.com/banner.json' },
      seo: { $ref: './config/missing.json' },
      search: { $ref: './config/search.txt' },
      errors: { $ref: './config/huge.json' },
      // Last: past the limit, further references are not read (the limit's one problem says so).
      api: { $ref: './fan/level0.json' },
      appearance: { default: 'sepia' },
    });
    // Ten references per file, four files deep: 1 + 10 + 100 + 1,000 uses, past the limit of 1,000.
    const fan: Record<string, string> = {};
    for (let level = 0; level < 4; level++) {
      fan[`fan/level${level}.json`] = json(level === 3 ? { x: 1 } : Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`k${k}`, { $ref: `./level${level + 1}.json` }])));
    }
    const A_JSON = json({ groups: [{ group: 'A', pages: ['index'] }, { $ref: './b.json' }] });
    const B_JSON = json({ group: 'B', pages: { $ref: '../nav/a.json' } });
    const root = makeContentRoot({
      'docs.json': docsJson,
      'nav/a.json': A_JSON,
      'nav/b.json': B_JSON,
      'config/search.txt': '{"prompt": "Search"}\n',
      'config/huge.json': `{"404": {"title": "${'x'.repeat(4 * 1024 * 1024)}"}}\n`,
      ...fan,
      'index.mdx': '# Home\n',
    });
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(root, 'config/linked.json'));
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    const ref = (after: string) => at('docs.json', docsJson, '$ref', after);
    expect(lines).toEqual(
      expect.arrayContaining([
        `${at('nav/b.json', B_JSON, '$ref')}: pages.$ref: "../nav/a.json" refers back to a file that refers to it (docs.json → nav/a.json → nav/b.json → nav/a.json): a reference may not loop`,
        `${ref('"navbar"')}: navbar.$ref: "../${path.basename(outside)}/secret.json" leads outside the repository: a reference must stay inside it`,
        `${ref('"footer"')}: footer.$ref: "./config/linked.json": "config/linked.json" is a symbolic link, which a reference never follows`,
        `${ref('"banner"')}: banner.$ref: "https://config.example.com/banner.json" is a URL: a reference names a JSON file of the repository, such as "./config/navigation.json"`,
        `${ref('"seo"')}: seo.$ref: "./config/missing.json": no file "config/missing.json" in the repository`,
        `${ref('"search"')}: search.$ref: "./config/search.txt" must name a .json file`,
        `${ref('"errors"')}: errors.$ref: "./config/huge.json": "config/huge.json" is larger than 4 MiB`,
        `${at('docs.json', docsJson, 'default')}: appearance.default: Invalid option: expected one of "system"|"light"|"dark"`,
      ]),
    );
    expect(lines.filter((l) => l.includes('more than 1000 references'))).toEqual([expect.stringMatching(/^fan\/level\d\.json:\d+:\d+: k\d\.\$ref: more than 1000 references in one docs.json$/)]);
    // What a failed reference leaves (b.json's `pages`, an object without its list) is not reported again.
    expect(lines.filter((l) => l.includes('Invalid input'))).toEqual([]);
  });
});

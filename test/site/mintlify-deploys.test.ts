// "What Mintlify deploys, Folio deploys" (docs/decisions.md): what real repositories write that
// Mintlify deploys, built for real from a fixture of the same shape. A component nobody defines, a
// navigation entry naming no page and an `openapi:` frontmatter naming a file that is not at that
// path each become a warning naming file:line:col, and the page renders; the files Mintlify does not
// publish (agent instructions, READMEs) are not pages; the log ends with the warnings grouped by kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { article, buildRoot, checkSite, listFiles, makeContentRoot, sidebarOf, text, type BuiltSite } from './helpers.ts';

const spec = (path: string, summary: string) =>
  [
    'openapi: 3.1.0',
    'info: { title: Lamp API, version: "1" }',
    'paths:',
    `  ${path}:`,
    '    get:',
    `      summary: ${summary}`,
    '      responses:',
    "        '200': { description: The lamps }",
    '',
  ].join('\n');

const FILES: Record<string, string> = {
  'docs.json': JSON.stringify(
    {
      name: 'Beacon Docs',
      navigation: {
        groups: [
          { group: 'Start', pages: ['index', 'guides/present', 'guides/missing-page'] },
          { group: 'API', root: 'api/no-such-root', pages: ['es/api/lamps', 'fr/api/lamps', 'api/bulbs', 'api/gone'] },
        ],
      },
    },
    null,
    2,
  ),
  'index.mdx': [
    '---',
    'title: Beacon',
    '---',
    '',
    'Intro paragraph.',
    '',
    '<ProductBadge tone="info">',
    'Shown **inside** the badge.',
    '</ProductBadge>',
    '',
    'A sentence with <Glow>glowing words</Glow> in it.',
    '',
  ].join('\n'),
  'guides/present.mdx': '---\ntitle: Present\n---\n\nHere.\n',
  // Files Mintlify does not publish: agents' and tools' instructions, a folder's README.
  'AGENTS.md': '# Instructions for coding agents\n',
  'CLAUDE.md': '# Instructions for another agent\n',
  'skills/writer/SKILL.md': '# A skill\n',
  'skills/reader/skill.md': '# Another skill\n',
  // ...but a page whose name only looks like one of them in another case is a page (Mintlify's own docs have one).
  'changelog.mdx': '---\ntitle: Changelog\n---\n\nWhat changed.\n',
  'guides/README.mdx': '# About this folder\n',
  'spec.yaml': spec('/lamps', 'List the lamps'),
  'api/local.yaml': spec('/bulbs', 'List the bulbs'),
  // A translated page naming its language's copy of a spec that only the root holds.
  'es/api/lamps.mdx': '---\ntitle: Lámparas\nopenapi: /es/spec.yaml GET /lamps\n---\n',
  // ...and one whose language's copy is there but lags behind the root's.
  'fr/spec.yaml': spec('/older', 'An older operation'),
  'fr/api/lamps.mdx': '---\ntitle: Lampes\nopenapi: /fr/spec.yaml GET /lamps\n---\n',
  // A path relative to the page's folder.
  'api/bulbs.mdx': '---\ntitle: Bulbs\nopenapi: local.yaml GET /bulbs\n---\n',
  // Found nowhere: the page shows what it says itself.
  'api/gone.mdx': '---\ntitle: Gone\nopenapi: nowhere.yaml GET /nothing\n---\n\nOwn words of this page.\n',
};

let site: BuiltSite;
const warnings = () => site.result.warnings.join('\n');
beforeAll(async () => {
  site = await buildRoot(makeContentRoot(FILES));
  if (!site.result.ok) throw new Error(site.result.log.join('\n'));
}, 240_000);
afterAll(() => {
  fs.rmSync(site.root, { recursive: true, force: true });
  fs.rmSync(site.out, { recursive: true, force: true });
});

describe('a component that is neither Mintlify\'s nor the page\'s', () => {
  it('renders its content in its place, as Markdown, without the element', () => {
    const html = article(site.read('index.html'));
    expect(html).toMatch(/Shown <strong>inside<\/strong> the badge\./);
    expect(text(html)).toContain('A sentence with glowing words in it.');
    expect(html).not.toMatch(/ProductBadge|Glow|tone=/);
  });

  it('is named in a warning with its place', () => {
    expect(warnings()).toContain('[folio] warning: index.mdx:7:1: unknown component <ProductBadge>: its content is shown in its place');
    expect(warnings()).toContain('[folio] warning: index.mdx:11:17: unknown component <Glow>: its content is shown in its place');
  });
});

describe('a navigation entry that names no page', () => {
  it('is left out of the navigation, the rest of it kept', () => {
    const sidebar = sidebarOf(site.read('index.html'));
    expect(sidebar).toContain('href="/guides/present/"');
    expect(sidebar).toContain('href="/api/bulbs/"');
    expect(sidebar).not.toContain('missing-page');
    expect(sidebar).not.toContain('no-such-root');
  });

  it('is named in a warning pointing into docs.json', () => {
    expect(warnings()).toMatch(/\[folio\] warning: docs\.json:\d+:\d+: navigation\.groups\.0\.pages\.2: no page "guides\/missing-page" \(.*\); it is left out of the navigation/);
    expect(warnings()).toMatch(/\[folio\] warning: docs\.json:\d+:\d+: navigation\.groups\.1\.root: no page "api\/no-such-root"/);
  });
});

describe('openapi: frontmatter naming a file that is not at that path', () => {
  it.each([
    ['uses the spec of the same name found in the root', 'es/api/lamps', '/lamps', 'es/api/lamps.mdx:3:1: openapi: no file "/es/spec.yaml": spec.yaml, which has GET /lamps, is used'],
    ['uses the spec of the same name when the one at that path lacks the operation', 'fr/api/lamps', '/lamps', 'fr/api/lamps.mdx:3:1: openapi: fr/spec.yaml has no operation GET /lamps: spec.yaml, which has it, is used'],
    ['reads a path relative to the page\'s folder', 'api/bulbs', '/bulbs', 'api/bulbs.mdx:3:1: openapi: "local.yaml" is read from the page\'s folder: api/local.yaml'],
    ['renders the page\'s own content when no spec has the operation', 'api/gone', 'Own words of this page.', 'api/gone.mdx:3:1: openapi: no file "nowhere.yaml", and no OpenAPI file of the content root has GET /nothing: the page shows its own content'],
  ])('%s, with a warning', (_, page, shown, warning) => {
    expect(text(article(site.read(`${page}/index.html`)))).toContain(shown);
    expect(warnings()).toContain(warning);
  });
});

describe('which files are pages', () => {
  it('leaves out agent instruction files and READMEs at any depth, as Mintlify does', () => {
    const built = listFiles(site.out);
    for (const name of ['AGENTS', 'CLAUDE', 'SKILL', 'skill', 'README']) expect(built.filter((f) => f.includes(name)), name).toEqual([]);
    expect(text(article(site.read('changelog/index.html')))).toContain('What changed.');
    expect(site.result.pageCount).toBe(7);
  });
});

describe('one report', () => {
  it('ends the build log with the warnings grouped by kind, counted, with their first places', () => {
    const log = site.result.log;
    const start = log.findIndex((l) => l.startsWith('warnings by kind: '));
    // Two unknown components, two kinds of missing entries, four ways an openapi: was resolved.
    expect(log[start]).toBe('warnings by kind: 8 warnings of 7 kinds (each one is a line of this log)');
    expect(site.result.warnings).toHaveLength(8);
    const block = log.slice(start + 1);
    const starts = [
      '  2 × unknown component <…>: its content is shown in its place;',
      '      index.mdx:7:1: unknown component <ProductBadge>',
      '      index.mdx:11:17: unknown component <Glow>',
      '  1 × navigation.groups.N.pages.N: no page "…"; it is left out of the navigation',
      '  1 × openapi: no file "…": …, which has GET …, is used',
      '      es/api/lamps.mdx:3:1: openapi: no file "/es/spec.yaml": spec.yaml, which has GET /lamps, is used',
    ];
    for (const line of starts) expect(block.some((l) => l.startsWith(line)), line).toBe(true);
  });

  it('check:site reports every problem of docs.json, the pages and every OpenAPI file in one run', async () => {
    const broken = (n: number) => spec(`/items${n}`, 'Items').replace('3.1.0', '3.0.3').replace('      responses:', '      parameters:\n        - { name: q, in: query, schema: { type: strin } }\n      responses:');
    const root = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'X', colors: { primary: 42 } }),
      'one.yaml': broken(1),
      'two.yaml': broken(2),
      'a.mdx': '---\ntitle: A\nopenapi: one.yaml GET /items1\n---\n',
      'b.mdx': '---\ntitle: B\nopenapi: two.yaml GET /items2\n---\n',
      'c.mdx': '---\ntitle: C\n---\n\n<Mystery>kept</Mystery>\n',
    });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines.filter((l) => /^\S+:\d+:\d+: /.test(l)).map((l) => l.split(':')[0])).toEqual(['docs.json', 'one.yaml', 'two.yaml']);
    expect(lines).toContain('warnings by kind: 1 warning of 1 kind (--all-warnings lists every one)');
    expect(lines).toContain('      c.mdx:5:1: unknown component <Mystery>: its content is shown in its place; available components: Mintlify\'s built-in set and ApiMethod, Callout, Snippet (see "Components" in the docs)');
    expect(lines.at(-1)).toBe('3 pages, 3 refused, 1 warnings');
    fs.rmSync(root, { recursive: true, force: true });
  });
});

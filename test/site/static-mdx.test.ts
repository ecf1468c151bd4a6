// MDX pages kept as data (docs/decisions.md#mdx-pages-as-data): the components fixture, which uses
// every component with every prop, is built for real twice, with its pages kept as data and with
// every page compiled as an MDX module (FOLIO_STATIC_MDX=0), and every page of both sites must be
// the same bytes. Then content that looks hostile: what the static path does with expressions,
// script URLs, event handlers and <script>, and that pages it cannot keep as data take the MDX path.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseExpressionAt } from 'acorn';
import { mdxToJs } from 'satteri';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER } from '../../src/builder/astro-step.ts';
import { BUILDS_DIR, buildOutDir, makeBuildRoot } from '../../src/builder/build-roots.ts';
import { workerEnv } from '../../src/builder/processes.ts';
import { checkContentRoot } from '../../src/site/content-check/check-root.ts';
import { DROPS_PROPS_PREFIX, HAS_ESM_PREFIX, checkedDigest, writeCheckedFile } from '../../src/site/content-check/checked-files.ts';
import { NotStatic, moduleToTree } from '../../src/site/markdown/static-mdx-module.ts';
import { article, listFiles, makeContentRoot } from './helpers.ts';

const FIXTURE = path.resolve('test/fixtures/components');

interface ColdBuild {
  code: number | null;
  stderr: string;
  /** What the build wrote to its standard output (its log). */
  stdout: string;
  out: string;
  /** The entries of the build's content store, as text (what the pages were kept as). */
  store: string;
  /** Astro's store file alone, which it bundles into the build as one module. */
  bundledStore: string;
}

const roots: string[] = [];

/**
 * One cold build process of build-worker.ts, as build.ts starts one (no sandbox): the content root
 * as it is, without the check before the build (the build's own check runs on every file).
 * `checked`: digests handed to the build as if the check before it had passed them (checked-files.ts).
 */
async function coldBuild(contentRoot: string, staticMdx: boolean, checked: string[] = []): Promise<ColdBuild> {
  const buildRoot = await makeBuildRoot(BUILDS_DIR);
  roots.push(buildRoot);
  if (checked.length) await writeCheckedFile(buildRoot, checked);
  const env = { ...workerEnv(buildRoot, contentRoot, buildOutDir(buildRoot)), ...(staticMdx ? {} : { FOLIO_STATIC_MDX: '0' }) };
  const child = spawn(process.execPath, [WORKER], { cwd: buildRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stdin.end('go\n');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  // The store, and the pages' rendered content Folio keeps in files beside it (src/site/loaders/rendered-files.ts).
  const storeFiles = [path.join(buildRoot, '.cache/astro/data-store.json'), ...listFiles(path.join(buildRoot, '.cache/astro/folio-rendered')).map((f) => path.join(buildRoot, '.cache/astro/folio-rendered', f))];
  const [bundledStore = '', ...rendered] = storeFiles.map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : ''));
  return { code, stderr, stdout, out: buildOutDir(buildRoot), store: [bundledStore, ...rendered].join('\n'), bundledStore };
}

afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

describe('the components fixture, as data and as MDX modules', () => {
  let asData: ColdBuild;
  let asModules: ColdBuild;
  beforeAll(async () => {
    // One after the other: two builds at once on a small machine only slow each other down.
    asData = await coldBuild(FIXTURE, true);
    asModules = await coldBuild(FIXTURE, false);
  }, 300_000);

  it('builds every page the same, byte for byte', () => {
    expect(asData.code, asData.stderr).toBe(0);
    expect(asModules.code, asModules.stderr).toBe(0);
    const pages = listFiles(asModules.out).filter((f) => f.endsWith('.html')).sort();
    expect(pages).toEqual(listFiles(asData.out).filter((f) => f.endsWith('.html')).sort());
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const page of pages) {
      const data = fs.readFileSync(path.join(asData.out, page), 'utf8');
      const modules = fs.readFileSync(path.join(asModules.out, page), 'utf8');
      expect(article(data).length, page).toBeGreaterThan(0);
      expect(data, page).toBe(modules);
    }
  });

  it('keeps the fixture\'s pages as data, not as modules', () => {
    const count = (text: string, word: string) => text.split(`"${word}"`).length - 1;
    expect(count(asData.store, 'folioStaticMdx')).toBe(4);
    expect(count(asData.store, 'deferredRender')).toBe(0);
    expect(count(asModules.store, 'folioStaticMdx')).toBe(0);
    expect(count(asModules.store, 'deferredRender')).toBe(4);
  });

  it('keeps no page\'s tree or HTML in the store Astro bundles as one module (each page reads its own file)', () => {
    // What grew the bundled store with the site until the bundler ran out of memory at 25,000 pages.
    expect(asData.bundledStore).toContain('"folioRenderedFile"');
    expect(asData.bundledStore).not.toContain('folioStaticMdx');
    expect(asData.bundledStore).not.toContain('<p>');
  });

  it('keeps no page\'s source in that store either, as data or as MDX modules, and its Markdown still has it', () => {
    // The bodies were most of what Astro loads, saves and bundles of the store in a one-page fast build.
    for (const build of [asData, asModules]) {
      expect(build.bundledStore).toContain('"More components"');
      expect(build.bundledStore).not.toContain('Labels may be markup');
      expect(build.bundledStore).not.toContain('Tree.Folder');
      expect(fs.readFileSync(path.join(build.out, 'more.md'), 'utf8')).toContain('Labels may be markup');
    }
  });
});

/** A 1×1 PNG, for a page with a relative image (Astro imports it: the page stays an MDX module). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('content that looks hostile, on the static path', () => {
  let asData: ColdBuild;
  let asModules: ColdBuild;
  let refused: ColdBuild;
  beforeAll(async () => {
    const root = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'Hostile' }),
      'content/index.mdx': [
        '---', 'title: Home', '---', '',
        '<Card title={"<script>alert(1)</script>"} href="/pics/">Text with &lt;script&gt;, "quotes", \'apostrophes\' & ampersands.</Card>', '',
        '<Note>A <Badge color="green">"tag" <b>bold</b></Badge> onclick="alert(2)" as text.</Note>', '',
        '<Tooltip tip="<img src=x onerror=alert(3)>">hover</Tooltip>', '',
        'Plain `<script>alert(4)</script>` in code, and \\{not an expression\\}.', '',
      ].join('\n'),
      'content/pics.mdx': '# Pictures\n\n![A pixel](./pixel.png)\n\n<Note>Below the picture.</Note>\n',
      // Falls back too (it imports pixel.png), and its missing image is a warning in the build log.
      'content/gone.mdx': '# Gone\n\n![A pixel](./pixel.png)\n\n![Missing](./missing.png)\n',
    });
    fs.writeFileSync(path.join(root, 'content/pixel.png'), PNG);
    const bad = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'Refused' }),
      'content/index.mdx': '# Fine\n\nA page that passes.\n',
      'content/expression.mdx': '# E\n\nTotal: {globalThis.process.exit(1)}\n',
      'content/url.mdx': '# U\n\n<Card title="Go" href="javascript:alert(1)">x</Card>\n',
      'content/handler.mdx': '# H\n\n<img src="/x.png" onerror="alert(1)" />\n',
      'content/script.mdx': '# S\n\n<script>alert(1)</script>\n',
    });
    roots.push(root, bad);
    asData = await coldBuild(root, true);
    asModules = await coldBuild(root, false);
    refused = await coldBuild(bad, true);
  }, 300_000);

  it('escapes markup in props and text as the MDX path does', () => {
    expect(asData.code, asData.stderr).toBe(0);
    const html = fs.readFileSync(path.join(asData.out, 'index.html'), 'utf8');
    expect(html).toBe(fs.readFileSync(path.join(asModules.out, 'index.html'), 'utf8'));
    const page = article(html);
    expect(page).toContain('<p class="mint-card-title">&#60;script&#62;alert(1)&#60;/script&#62;</p>');
    expect(page).toContain('Text with &lt;script&gt;, “quotes”, ‘apostrophes’ &amp; ampersands.');
    expect(page).toContain('<span class="mint-tooltip-tip">&#60;img src=x onerror=alert(3)&#62;</span>');
    expect(page).toContain('<code>&lt;script&gt;alert(4)&lt;/script&gt;</code>');
    expect(page).toContain('<b>bold</b></span> onclick=“alert(2)” as text.');
    expect(page).toContain('{not an expression}');
    // No element, and no handler attribute in any tag: all of it is text.
    expect(page).not.toMatch(/<script>alert|<img src=x|<[^>]*\son(click|error)=/i);
  });

  it('leaves a page it cannot keep as data (an imported image) on the MDX path, the same as before', () => {
    expect(asData.code, asData.stderr).toBe(0);
    const count = (text: string, word: string) => text.split(`"${word}"`).length - 1;
    expect(count(asData.store, 'folioStaticMdx')).toBe(1);
    expect(count(asData.store, 'deferredRender')).toBe(2);
    const html = fs.readFileSync(path.join(asData.out, 'pics/index.html'), 'utf8');
    expect(html).toBe(fs.readFileSync(path.join(asModules.out, 'pics/index.html'), 'utf8'));
    expect(article(html)).toMatch(/<img src="\/_astro\/pixel\.[^"]+" alt="A pixel"/);
    expect(article(html)).toContain('Below the picture.');
  });

  it('logs the warnings of a page that falls back to the MDX path once, not once per compile', () => {
    expect(asData.code, asData.stderr).toBe(0);
    const warnings = (build: ColdBuild) => `${build.stdout}\n${build.stderr}`.split('\n').filter((line) => line.includes('content/gone.mdx: image ./missing.png'));
    expect(warnings(asData)).toEqual([expect.stringContaining('[folio] warning: content/gone.mdx: image ./missing.png: no file content/missing.png in the content root')]);
    expect(warnings(asModules)).toHaveLength(1);
    expect(article(fs.readFileSync(path.join(asData.out, 'gone/index.html'), 'utf8'))).toMatch(/<img src="\/_astro\/pixel\.[^"]+" alt="A pixel"/);
  });

  it('refuses expressions, script URLs, event handlers and <script> in the build itself, naming each page', () => {
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/content\/expression\.mdx:3:\d+: expression \{globalThis\.process\.exit\(1\)\} is not allowed/);
    expect(refused.stderr).toMatch(/content\/url\.mdx:3:\d+: attribute href on <Card> is not allowed: javascript: URLs/);
    expect(refused.stderr).toMatch(/content\/handler\.mdx:3:\d+: event handler attribute "onerror" is not allowed/);
    expect(refused.stderr).toMatch(/content\/script\.mdx:3:\d+: the <script> element is not allowed/);
    expect(listFiles(refused.out).filter((f) => f.endsWith('.html'))).toEqual([]);
  });
});

describe('literal props that look like markup, slots or the tree itself', () => {
  let asData: ColdBuild;
  let asModules: ColdBuild;
  beforeAll(async () => {
    // Each passes the content check: literal values only. Object props that have the shape of a
    // stored tree node, `$$slot` objects (Astro's JSX renderer takes them as slots), style objects
    // whose keys hold markup, Object.prototype names as elements, a lone surrogate, -0 and 1e21.
    const root = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'Props' }),
      'content/index.mdx': [
        '---', 'title: Props', '---', '',
        "<div style={{\"x\\\"><script>alert(1)</script>\": 1, \"color\": \"red;\\\"><b>\"}}>styled</div>", '',
        "<div data-x={{a: \"</div><script>alert(1)</script>\"}}>q</div>", '',
        "<Card title={{$$slot: \"<script>alert(1)</script>\"}}>slot</Card>", '',
        "<Card title={[\"<i>\", {b: \"<script>\"}]}>arr</Card>", '',
        "<Card title=\"a\">{\"<script>alert(1)</script>\"}</Card>", '',
        "<div children=\"<b>x</b>\" />", '',
        "<Card title=\"obj\" children={{t: \"e\", n: \"script\", p: {children: \"alert(1)\"}}} />", '',
        "<Badge color={{o: {t: \"e\", n: \"script\", p: {o: {children: \"alert(1)\"}}}}}>b</Badge>", '',
        "<div class:list={[\"a\", {b: true}]}>cl</div>", '',
        "<div title={\"\\u2028\\uD800 </div><script>\"} data-n={-0} data-m={1e21}>t</div>", '',
        "<svg><a xlinkHref=\"https://example.com/\">x</a></svg>", '',
        "<math><mi>x</mi></math>", '',
        "<Card title=\"slot\" slot=\"footer\">s</Card>", '',
        "<Tabs><Tab title=\"a\" slot=\"x\">x</Tab></Tabs>", '',
        "<constructor>c</constructor><toString>t</toString><hasOwnProperty>h</hasOwnProperty>", '',
        "<x-y is=\"a\">custom</x-y>", '',
        "<Tooltip tip={<b>bold <i>it</i></b>}>hover</Tooltip>", '',
        "<Icon icon={<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\" /></svg>} />", '',
        "<Card title={\"{}\"} href={\"/x?a=1&b=<2>\"}>amp</Card>", '',
        "<div set={\"x\"} define={\"y\"}>d</div>", '',
      ].join('\n'),
    });
    roots.push(root);
    asData = await coldBuild(root, true);
    asModules = await coldBuild(root, false);
  }, 300_000);

  it('keeps the page as data and renders it byte for byte as the MDX path does, with no element of its own', () => {
    expect(asData.code, asData.stderr).toBe(0);
    expect(asModules.code, asModules.stderr).toBe(0);
    expect(asData.store.split('"folioStaticMdx"').length - 1).toBe(1);
    const html = fs.readFileSync(path.join(asData.out, 'index.html'), 'utf8');
    expect(html).toBe(fs.readFileSync(path.join(asModules.out, 'index.html'), 'utf8'));
    const page = article(html);
    expect(page).toContain('styled');
    // Markup in props stays inside quoted attribute values (escaped) or text: with the values
    // emptied, the only script left is the Tabs component's own module, and no handler or <b>x</b>.
    const tags = page.replace(/"[^"]*"/g, '""');
    for (const script of tags.match(/<script\b[^>]*>/gi) ?? []) expect(script).toBe('<script type="" src="">');
    expect(tags).not.toMatch(/<b>x<\/b>|<[^>]*\son[a-z]+=/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('a component named as the module names its own parts', () => {
  it('fails the build on the static path as on the MDX path, naming the missing component', async () => {
    // The check takes `<_Fragment>` for an element; MDX takes it for a component the map lacks.
    const root = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'Names' }),
      'content/index.mdx': '# Home\n\n<_Fragment>hidden</_Fragment>\n\n<Card title="x">t</Card>\n',
    });
    roots.push(root);
    const asData = await coldBuild(root, true);
    const asModules = await coldBuild(root, false);
    for (const build of [asData, asModules]) {
      expect(build.code, build.stderr).not.toBe(0);
      expect(`${build.stdout}\n${build.stderr}`).toContain('Expected component `_Fragment` to be defined');
    }
  }, 300_000);
});

describe('props a built-in component does not take', () => {
  it('are removed where the check before the build found them, and only such pages are walked for them', async () => {
    const page = (name: string) => `---\ntitle: ${name}\n---\n<Card title="${name}" foo="from-${name}">text</Card>\n`;
    const root = makeContentRoot({ 'content/a.mdx': page('a'), 'content/b.mdx': page('b'), 'content/c.mdx': page('c') });
    roots.push(root);
    const digest = (name: string) => checkedDigest(page(name), { file: `content/${name}.mdx`, kind: 'page' });
    // a: passed, with the mark the check writes for such props. b: claimed to have passed without
    // them (what the check writes for a page that has none), so the build trusts it and skips the
    // walk. c: not checked before, so walked.
    const build = await coldBuild(root, true, [digest('a'), `${DROPS_PROPS_PREFIX}${digest('a')}`, digest('b')]);
    expect(build.code, build.stderr).toBe(0);
    const kept = (name: string) => build.store.includes(`\\"foo\\":\\"from-${name}\\"`);
    expect(kept('a')).toBe(false);
    expect(kept('b')).toBe(true);
    expect(kept('c')).toBe(false);
  }, 120_000);

  it('are what the check before the build marks a page for (as it marks a page with import or export statements)', async () => {
    const marked = '<Card title="a" foo="x">text</Card>\n';
    const clean = '<Card title="b">text</Card>\n\n```js\nimport x from "y";\n```\n';
    const esm = 'export const v = "c";\n\n<Card title={v}>text</Card>\n';
    const root = makeContentRoot({ 'content/a.mdx': marked, 'content/b.mdx': clean, 'content/c.mdx': esm });
    roots.push(root);
    const { checked, warnings } = await checkContentRoot(root);
    const a = checkedDigest(marked, { file: 'content/a.mdx', kind: 'page' });
    const b = checkedDigest(clean, { file: 'content/b.mdx', kind: 'page' });
    const c = checkedDigest(esm, { file: 'content/c.mdx', kind: 'page' });
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('<Card> has no prop "foo"')]);
    expect(checked.toSorted()).toEqual([a, b, c, `${DROPS_PROPS_PREFIX}${a}`, `${HAS_ESM_PREFIX}${c}`].toSorted());
  });
});

describe('reading a compiled page as data', () => {
  /** What Sätteri writes for `source` as @astrojs/mdx asks it to and edits it (create-processor.js), without Folio's checks. */
  const compiled = (source: string) => `${mdxToJs(source, { optimizeStatic: { component: 'Fragment', prop: 'set:html' }, jsxImportSource: 'astro', elementAttributeNameCase: 'html' }).code.replace(/^export default MDXContent;\s*$/m, '')}
export const frontmatter = {"title":"T"};
export function getHeadings() { return [{"depth":2,"slug":"a","text":"A"}]; }`;

  it('keeps literal props, components, member components, elements and static HTML', () => {
    const page = moduleToTree(compiled('## A\n\n<Card title="Go" cols={2} horizontal>Hi <Badge>new</Badge></Card>\n\n<Tree.Folder name="src" />\n\n<div>x <Icon icon="a" /></div>\n'));
    expect(page.frontmatter).toEqual({ title: 'T' });
    expect(page.headings).toEqual([{ depth: 2, slug: 'a', text: 'A' }]);
    expect(JSON.stringify(page.tree)).toBe(JSON.stringify({ t: 'f', p: { children: [
      // The components map's Fragment (Astro's, which the Content gives it), as MDX reads it.
      { t: 'c', n: ['Fragment'], p: { 'set:html': '<h2>A</h2>\n' } },
      { t: 'c', n: ['Card'], p: { title: 'Go', cols: 2, horizontal: true, children: ['Hi ', { t: 'c', n: ['Badge'], p: { children: 'new' } }] } },
      '\n',
      { t: 'c', n: ['Tree', 'Folder'], p: { name: 'src' } },
      '\n',
      { t: 'o', n: 'div', p: { children: ['x ', { t: 'c', n: ['Icon'], p: { icon: 'a' } }] } },
    ] } }));
  });

  it('refuses anything that would run: expressions, calls, variables, spreads, imports and exports of its own', () => {
    for (const source of [
      'Total: {1 + 1}',
      '{alert(1)}',
      '<Card title={window.name} />',
      '<Card title={`a${b}`} />',
      '<Card {...props} />',
      '<Card onClick={() => alert(1)} />',
      '<Card title={"a" + "b"} />',
      '<Card data={{ __proto__: { polluted: true } }} />',
      'import X from "./x.js"\n\n<X />',
      'export const x = 1\n\nHi',
      'export default function Layout() {}\n\nHi',
    ]) {
      expect(() => moduleToTree(compiled(source)), source).toThrow(NotStatic);
    }
  });

  it('leaves a page to the MDX path where a component of its own has a name the module binds itself', () => {
    // MDX reads `<_Fragment>` as a component (`const { _Fragment } = props.components`), which hides
    // the runtime's `_Fragment` in the whole content function: run, the module fails on the missing
    // component (the root `_jsxs(_Fragment, …)` is that component too), so the page may not render
    // as a fragment. `<_components>` beside a paragraph with a component declares `_components`
    // twice (a syntax error), and `<Object />` leaves `Object.assign` reading a const before it is set.
    // `<__proto__ />` reads the map's prototype, which the module renders and the renderer cannot.
    for (const source of [
      '<_Fragment>hi</_Fragment>\n\n<Card title="x" />',
      '<_jsx>hi</_jsx>',
      '<_jsxs>hi</_jsxs>\n\n<Card />\n\n<Card />',
      'a <Card /> b\n\n<_components>x</_components>',
      'a <Card /> b\n\n<_components.p>x</_components.p>',
      'a <Card /> b\n\n<Object />',
      '<_missingMdxReference />',
      // Read from the map by destructuring, these are every object's own (Object.prototype's).
      '<__proto__ />\n\n<Card title="x" />',
      '<__defineGetter__ />',
    ]) {
      expect(() => moduleToTree(compiled(source)), source).toThrow(NotStatic);
    }
    // Nor does the module's own map of elements hold a `__proto__` (that key would set its prototype).
    const elements = compiled('a <Card /> b');
    expect(moduleToTree(elements).tree.t).toBe('o');
    expect(() => moduleToTree(elements.replace('{ p: "p" }', '{ __proto__: "__proto__" }').replace('_components.p', '_components.__proto__'))).toThrow(NotStatic);
    // A component the module does not shadow anything with stays data.
    expect(moduleToTree(compiled('<Fragment>hi</Fragment>\n\n<Card title="x" />')).tree.t).toBe('f');
  });

  /** The title prop `<Card>` gets when the module writes `literal` for it. */
  const titleOf = (literal: string) => {
    const module = compiled('<Card title="x" />').replace('title: "x"', () => `title: ${literal}`);
    const { tree } = moduleToTree(module);
    expect(tree.n).toEqual(['Card']);
    return tree.p.title;
  };

  it('reads every form of literal as JavaScript does (acorn is the reference here)', () => {
    for (const literal of [
      String.raw`"a\"b\\c\/d"`, String.raw`'it\'s "quoted"'`, String.raw`"tab\there"`, '"raw\ttab"', "'single \\' quote'",
      String.raw`"\u00e9\u{1F600}\x41\v\0\b\f"`, '"a\\\nb"', '`two\nlines\r\nhere`', '`escaped \\${not} a substitution $ {}`',
      '"é ☃ 😀 \\u2028"', '"raw:\u2028 and \u2029"', '""', "''", '``',
      String.raw`'$$ $& $\' $1 $\`'`,
      '2', '-1.5', '1e3', '0', '2.5E-2', 'true', 'false', 'null',
    ]) {
      const node = parseExpressionAt(literal, 0, { ecmaVersion: 'latest' }) as unknown as { type: string; value?: unknown; quasis?: Array<{ value: { cooked: string } }>; operator?: string; argument?: { value: number } };
      const expected = node.type === 'TemplateLiteral' ? node.quasis![0]!.value.cooked : node.type === 'UnaryExpression' ? -node.argument!.value : node.value;
      expect(titleOf(literal), literal).toStrictEqual(expected);
    }
  });

  it('leaves any other value to the MDX path: substitutions, other numbers, names, comments, operators', () => {
    for (const literal of ['`a${b}`', '"\\1"', '0x10', '1_000', '10n', '.5', '5.', 'undefined', 'NaN', '"a" /* c */', '"a" + "b"', '1e999', "'a\nb'", '[1, , 2]', '{ a }', '{ ["a"]: 1 }', '{ __proto__: 1 }', '{ a: 1, a: 2 }']) {
      expect(() => titleOf(literal), literal).toThrow(NotStatic);
    }
  });

  it('leaves a module that is not exactly what Sätteri writes to the MDX path', () => {
    const page = compiled('<Card title="x" />');
    for (const changed of [
      page.replace('function MDXContent(props = {}) {', 'function MDXContent(props = {}) {\n    globalThis.x = 1;'),
      page.replace('return _jsx(', 'alert(1);\n    return _jsx('),
      page.replace('"astro/jsx-runtime"', '"./x.js"'),
      `${page}\nexport const x = 1;`,
      `${page}\nconsole.log(1);`,
      page.replace('export const frontmatter = {', 'export const frontmatter = {a: 1, '),
      page.replace('_jsx(Card', '_jsx(window.Card'),
    ]) {
      expect(() => moduleToTree(changed), changed).toThrow(NotStatic);
    }
    expect(moduleToTree(page).frontmatter).toEqual({ title: 'T' });
  });
});

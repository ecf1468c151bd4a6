// Pages with code are React pages, as on Mintlify (docs/decisions.md#react-code-in-pages-built-in-components-event-handlers-hooks): in a project with code, React code
// uses the built-in components without an import and gets the same HTML as the page itself, an
// element's event handler written as code runs in the browser, and components keep state with
// hooks. Built for real with `build:site --allow-code`, served as Folio serves it, clicked in Chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT, runNode } from '../helpers/server.ts';
import { buildRoot, makeContentRoot, serveWithFolio } from './helpers.ts';
import { javascriptShipped } from '../../src/site/code/javascript-shipped.ts';

const BUILD_SITE = path.join(ROOT, 'scripts/build-site.ts');

/**
 * Every built-in component written as a markup function (component-markup.ts), with its props, each written once and put
 * both in an MDX page (rendered by Folio's Astro components) and in a .jsx file (rendered by React).
 * Children stand on lines of their own, so MDX reads them as elements, not paragraphs, as JSX does.
 */
const EVERY_COMPONENT = [
  ['<Note icon="rocket" color="#0a7">', '<span>A note with an icon & a colour</span>', '</Note>'],
  ['<Tip>', '<span>A tip</span>', '</Tip>'],
  ['<Info iconType="regular">', '<span>Some info</span>', '</Info>'],
  ['<Warning>', '<span>Do not</span>', '</Warning>'],
  ['<Check>', '<span>Done</span>', '</Check>'],
  ['<Danger>', '<span>Careful</span>', '</Danger>'],
  ['<Callout kind="warning" title="Heads up">', '<span>The kind and title form</span>', '</Callout>'],
  ['<Callout icon="bell" color="#c60">', '<span>The icon and colour form</span>', '</Callout>'],
  ['<Callout>', '<span>A plain note</span>', '</Callout>'],
  ['<ApiMethod method="post" />', '', ''],
  ['<ParamField query="limit" type="integer" required default={10} placeholder="20" pre={["beta"]} post={["since 2.0"]}>', '<span>How many</span>', '</ParamField>'],
  ['<ParamField body="name" type="string" deprecated>', '<span>The name</span>', '</ParamField>'],
  ['<ResponseField name="id" type={<code>string</code>} required>', '<span>Its id</span>', '</ResponseField>'],
  ['<Steps titleSize="h3">', '<Step title="First" icon="flag"><span>One</span></Step>', '</Steps>'],
  ['<Steps>', '<Step title={<em>Later</em>} stepNumber={5}><span>Five</span></Step>', '</Steps>'],
  ['<AccordionGroup>', '<Accordion title="Why?" description="Because" defaultOpen icon="circle-question"><span>Reasons</span></Accordion>', '</AccordionGroup>'],
  ['<CardGroup cols={3}>', '<Card title="Guide" icon="book" href="/guide" cta="Read it" arrow><span>Start here</span></Card>', '</CardGroup>'],
  ['<Columns cols={2}>', '<Card title="Elsewhere" href="https://example.com/x?a=1&b=2" horizontal color="#f00" img="https://example.com/pic.png"><span>Out</span></Card>', '</Columns>'],
  ['<Tab title="Alone" icon="code">', '<span>A lone tab</span>', '</Tab>'],
  ['<Badge color="blue" size="sm" shape="pill" icon="star" stroke>', '<span>New</span>', '</Badge>'],
  ['<Badge color="#123456" disabled>', '<span>Old</span>', '</Badge>'],
  ['<Icon icon="house" size={20} color="#333" />', '', ''],
  ['<Icon icon="github" iconType="brands" />', '', ''],
  ['<Icon icon={<svg viewBox="0 0 4 4"><circle cx="2" cy="2" r="2" /></svg>} />', '', ''],
  ['<Columns cols={2}>', '<Column className="left"><span>Left</span></Column>', '</Columns>'],
  ['<Panel>', '<span>Aside</span>', '</Panel>'],
  ['<Frame caption="The room" hint={<b>Look</b>} className="wide">', '<span>Framed</span>', '</Frame>'],
  ['<Expandable title="child fields" defaultOpen>', '<span>Inner</span>', '</Expandable>'],
  ['<Tile href="/guide" title="A tile" description="Described">', '<span>Preview</span>', '</Tile>'],
  ['<Tooltip tip="Application programming interface" headline="API" cta="More" href="/api">', '<span>API</span>', '</Tooltip>'],
  ['<Update label="2026-03-01" description="Version 2" tags={["Feature", "Fix"]}>', '<span>Flying</span>', '</Update>'],
  ['<View title="Python" icon="python">', '<span>Pythonic</span>', '</View>'],
  ['<Visibility for="humans">', '<span>People</span>', '</Visibility>'],
  ['<Visibility for="agents">', '<span>Machines</span>', '</Visibility>'],
  ['<Tree>', '<Tree.Folder name="src" defaultOpen><Tree.File name="a.ts" highlight /></Tree.Folder>', '</Tree>'],
  ['<Tree>', '<Tree.Folder name="fixed" openable={false}><Tree.File name="b.ts" /></Tree.Folder>', '</Tree>'],
  ['<Color>', '<Color.Item name="brand" value="#4f46e5" />', '</Color>'],
  ['<Color variant="table">', '<Color.Row title={<b>Greens</b>}><Color.Item name="leaf" value={{ light: "#0a7", dark: "url(x)" }} /></Color.Row>', '</Color>'],
  // The components that build their markup from their children: the tab list from the <Tab>
  // elements, the formula and the diagram from the text.
  ['<Tabs defaultTabIndex={1} className="fruit">', '<Tab title="Apple" icon="apple-whole"><span>Red</span></Tab>\n<Tab title="Pear"><span>Green</span></Tab>', '</Tabs>'],
  ['<Tabs borderBottom sync={false}>', '<Tab title="Only"><span>Alone</span></Tab>', '</Tabs>'],
  ['<Prompt description="Ask about widgets" icon="sparkles">', '<span>Explain widgets to me.</span>', '</Prompt>'],
  ['<Prompt actions={["open"]}>', '<span>Not copied.</span>', '</Prompt>'],
  ['<Latex>{"x^2 + y^2 = z^2"}</Latex>', '', ''],
  ['<Mermaid chart="graph TD; A-->B" />', '', ''],
  ['<GitHub.Repo repo="folio-example/widgets" />', '', ''],
  ['<GitHub.Repo repo="https://github.com/folio-example/gadgets" variant="flat" className="wide" />', '', ''],
] as const;
const everyComponent = (indent: string) => EVERY_COMPONENT.map(([open, child, close]) => (close ? `${indent}${open}\n${indent}  ${child}\n${indent}${close}` : `${indent}${open}`)).join('\n');

const ROOT_FILES: Record<string, string> = {
  // A component of an MDX snippet using built-in components, imported by name as Mintlify documents.
  'snippets/notice.mdx': `export const Notice = ({ guide }) => (
  <Note>
    <Icon icon="rocket" /> Read the <a href={guide}>guide</a> first.
    <Card title="Quickstart" icon="bolt" href={guide}>
      Five minutes.
    </Card>
  </Note>
);
`,
  'content/index.mdx': `---
title: Widgets
---
import { Notice } from '/snippets/notice.mdx';

export const Votes = ({ start }) => {
  const [votes, setVotes] = useState(start);
  return <button type="button" className="votes" onClick={() => setVotes(votes + 1)}>{votes} votes</button>;
};

export const Install = () => <CodeBlock language="bash" filename="install.sh">npm install folio</CodeBlock>;

<Notice guide="/compare/" />

<Install />

<Votes start={2} />

<p id="status">Nobody has asked yet.</p>

<button type="button" id="ask" onClick={() => { document.getElementById('status').textContent = 'Asked at last.'; }}>
  Ask **now**
</button>
`,
  'components/every.jsx': `export default function Every() {
  return (
    <div className="every">
${everyComponent('      ')}
    </div>
  );
}
`,
  'content/compare.mdx': `---
title: Both ways
---
import Every from '/components/every.jsx';
import Examples from '/components/examples.jsx';

<div id="astro-side">
${everyComponent('  ')}
</div>

<div id="react-side">
  <Every />
</div>

<div id="astro-examples">
<CodeGroup>

\`\`\`bash install.sh
npm install folio
\`\`\`

\`\`\`js
run();
\`\`\`

</CodeGroup>

<RequestExample dropdown>

\`\`\`bash curl
curl /v1
\`\`\`

\`\`\`python
get()
\`\`\`

</RequestExample>
</div>

<div id="react-examples">
  <Examples />
</div>
`,
  // Code groups in React code: their code blocks are <CodeBlock> elements (MDX pages write fences).
  'components/examples.jsx': `export default function Examples() {
  return (
    <div className="examples">
      <CodeGroup>
        <CodeBlock language="bash" filename="install.sh">npm install folio</CodeBlock>
        <CodeBlock language="js">run();</CodeBlock>
      </CodeGroup>
      <RequestExample dropdown>
        <CodeBlock language="bash" filename="curl">curl /v1</CodeBlock>
        <CodeBlock language="python">get()</CodeBlock>
      </RequestExample>
    </div>
  );
}
`,
  // No import or export: the page gets the import of its island before its first block.
  'content/ask.mdx': `---
title: Ask
---
# Ask

<p id="answer">No answer yet.</p>

<div className="asker" onClick={(event) => { document.getElementById('answer').textContent = 'Answered by ' + event.currentTarget.className; }}>
  <span id="ask-again">Ask</span>
</div>
`,
  // A formula in React code only: Astro's React renderer drops its stylesheet link, which React adds once hydrated.
  'components/formula.jsx': 'export default function Formula() {\n  return <p className="formula">Energy: <Latex>{"E = mc^2"}</Latex></p>;\n}\n',
  'content/formula.mdx': "---\ntitle: Formula\n---\nimport Formula from '/components/formula.jsx';\n\n<Formula />\n",
  'content/plain.md': '---\ntitle: Plain\n---\n\nNo code here, **just Markdown**.\n',
};

let root: string;
let out: string;
let plainOut: string;
let cli: Awaited<ReturnType<typeof runNode>>;
let browser: Browser;
let server: Awaited<ReturnType<typeof serveWithFolio>>;

beforeAll(async () => {
  root = makeContentRoot(ROOT_FILES);
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-react-out-'));
  cli = await runNode(BUILD_SITE, [root, out, '--allow-code'], {});
  // The plain page alone, built as a project without code: what it ships today.
  plainOut = (await buildRoot(makeContentRoot({ 'content/plain.md': ROOT_FILES['content/plain.md']! }))).out;
  server = await serveWithFolio(out, { allowCode: true });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of [root, out, plainOut]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A page of the served site, failing the test on any script error. */
async function open(pathname: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A card's image on another host is not reachable from the test: only script errors count.
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  await page.goto(`${server.url}${pathname}`);
  return { page, errors };
}

describe('React code using built-in components (build:site --allow-code)', () => {
  it('builds: a snippet component renders <Note>, <Icon> and <Card> without importing them, and a page component <CodeBlock>', () => {
    expect(cli.stderr + cli.stdout).not.toMatch(/is not defined|build failed/);
    expect(cli.code).toBe(0);
    const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    const island = html.slice(html.indexOf('<astro-island'), html.indexOf('</astro-island>'));
    expect(island).toMatch(/<aside class="callout callout-note mint-callout" role="note" aria-label="Note">/);
    expect(island).toMatch(/<span class="mint-icon-wrap icon" aria-hidden="true"><svg class="mint-icon mint-icon-fa"/);
    expect(island).toMatch(/<a href="\/compare\/" class="mint-card mint-card-link card">/);
    expect(island).toContain('<p class="mint-card-title">Quickstart</p>');
    // Mintlify's CodeBlock, which only React code uses: a code block as a fence gives it (not highlighted).
    expect(html).toContain('<div class="code-block" data-title="install.sh" data-language="bash"><div class="code-block-bar"><span class="code-block-title">install.sh</span><button type="button" class="code-block-copy" aria-label="Copy install.sh">Copy</button></div><pre class="astro-code"><code>npm install folio</code></pre></div>');
  });

  it('gives the same HTML as the page itself for every component, before and after hydration', async () => {
    const { page, errors } = await open('/compare/');
    await page.waitForSelector('#react-side astro-island:not([ssr]) .every');
    // Same DOM: the inline style written as React writes it, whitespace between elements aside.
    const sides = (html?: string) =>
      page.evaluate((source) => {
        const d = source === undefined ? document : new DOMParser().parseFromString(source, 'text/html');
        const canonical = (el: Element) => {
          const copy = el.cloneNode(true) as Element;
          const walker = d.createTreeWalker(copy, NodeFilter.SHOW_ALL);
          const blank: Node[] = [];
          for (let n: Node | null = walker.currentNode; n; n = walker.nextNode()) {
            if (n.nodeType === Node.TEXT_NODE && !n.textContent!.trim()) blank.push(n);
            if (n.nodeType === Node.COMMENT_NODE) blank.push(n);
            // Astro's React renderer removes stylesheet links from React's HTML: React's Latex adds KaTeX's to the head.
            if (n instanceof HTMLLinkElement && n.rel === 'stylesheet') blank.push(n);
            // The .astro files' module scripts (tab switching, copying) are the page's: React code binds the same once hydrated.
            if (n instanceof HTMLScriptElement && n.type === 'module') blank.push(n);
            // Once loaded, Mermaid's script draws each diagram (with ids of its own): drawn is what counts.
            if (n instanceof HTMLElement && n.matches('.mint-mermaid[data-processed]')) {
              n.removeAttribute('data-processed');
              n.textContent = 'graph drawn';
            }
            if (n instanceof HTMLElement || n instanceof SVGElement) if (n.hasAttribute('style')) n.setAttribute('style', n.style.cssText);
            // Ids of tooltips, tab sets and prompts are unique within the build, so the two sides' differ.
            if (n instanceof Element) {
              for (const name of ['id', 'aria-controls', 'aria-labelledby', 'aria-describedby', 'data-mint-copy']) {
                const value = n.getAttribute(name);
                if (value) n.setAttribute(name, value.replace(/mint-(tip|tabs|prompt)-[0-9a-z]+/g, 'mint-$1-id'));
              }
            }
          }
          blank.forEach((n) => n.parentNode!.removeChild(n));
          return copy.innerHTML;
        };
        return { astro: canonical(d.querySelector('#astro-side')!), react: canonical(d.querySelector('#react-side .every')!) };
      }, html);
    const served = await (await fetch(`${server.url}/compare/`)).text();
    const before = await sides(served);
    expect(before.astro).toContain('mint-card');
    expect(before.astro).toContain('mint-tree-folder');
    for (const made of ['role="tablist"', 'mint-prompt-copy', 'class="katex"', 'mint-mermaid', 'mint-github-repo-flat']) expect(before.astro).toContain(made);
    expect(before.react).toBe(before.astro);
    await page.waitForFunction(() => document.querySelectorAll('.mint-mermaid[data-processed]').length === 2);
    const after = await sides();
    // Hydrated, the icons the server wrote stay (the browser bundle carries no icon data).
    expect(after.react).toBe(before.astro.replace('>graph TD; A--&gt;B<', '>graph drawn<'));
    expect(after.astro).toBe(after.react);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('builds code groups from <CodeBlock> elements as the page builds them from fences, and tabs, code groups and prompts work once hydrated', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/compare/`);
    await page.waitForSelector('#react-examples astro-island:not([ssr]) .examples');
    // The tab bars (titles from the fences' meta and from CodeBlock's filename, else the language) and the panels' roles.
    const bars = (side: string) =>
      page.$$eval(`${side} .mint-code-group`, (groups) =>
        groups.map((g) => ({
          head: g.outerHTML.slice(0, g.outerHTML.indexOf('>') + 1),
          bar: g.querySelector('.mint-tab-bar')!.outerHTML.replace(/mint-tabs-[0-9a-z]+/g, 'mint-tabs-id'),
          panels: [...g.querySelectorAll('[data-mint-panel]')].map((p) => [p.getAttribute('role'), p.getAttribute('aria-label'), p.hasAttribute('hidden'), p.getAttribute('data-language')]),
        })),
      );
    const astro = await bars('#astro-examples');
    expect(astro.map((g) => g.bar).join('')).toContain('>install.sh</button><button type="button" role="tab" class="mint-tab"');
    expect(astro.map((g) => g.bar).join('')).toContain('<option value="1">python</option>');
    expect(await bars('#react-examples')).toEqual(astro);
    expect(await page.locator('#react-examples .mint-request-example .mint-code-group-label').textContent()).toBe('Request');

    // Hydrated React code switches its tabs: a code group's tab, a dropdown, and a Tabs set.
    const reactGroup = page.locator('#react-examples .mint-code-group').first();
    await reactGroup.locator('[role="tab"]', { hasText: 'js' }).click();
    await expect.poll(() => reactGroup.locator('[data-mint-panel]:not([hidden])').getAttribute('data-language')).toBe('js');
    const dropdown = page.locator('#react-examples .mint-code-group-dropdown');
    await dropdown.locator('select').selectOption('1');
    await expect.poll(() => dropdown.locator('[data-mint-panel]:not([hidden])').getAttribute('data-language')).toBe('python');
    const fruit = page.locator('#react-side .mint-tabs.fruit');
    expect(await fruit.locator('[data-mint-panel]:not([hidden])').textContent()).toBe('Green');
    await fruit.locator('[role="tab"]', { hasText: 'Apple' }).click();
    await expect.poll(() => fruit.locator('[data-mint-panel]:not([hidden])').textContent()).toBe('Red');
    // A prompt's copy button in React code copies its text.
    const copy = page.locator('#react-side .mint-prompt-copy');
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Explain widgets to me.');
    // The diagram is drawn by the page's Mermaid script (served by the site itself).
    await page.waitForSelector('#react-side .mint-mermaid svg');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('styles a formula that only React code shows with KaTeX\'s stylesheet, served by the site', async () => {
    const { page, errors } = await open('/formula/');
    await page.waitForSelector('astro-island:not([ssr]) .formula .mint-latex .katex');
    await page.waitForSelector('head link[rel="stylesheet"][href="/_folio/vendor/katex/katex.min.css"]', { state: 'attached' });
    // Styled: KaTeX's stylesheet hides the MathML copy of the formula.
    await expect.poll(() => page.$eval('.formula .katex-mathml', (el) => getComputedStyle(el).position)).toBe('absolute');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs an element\'s event handler and a component\'s useState in the browser', async () => {
    const { page, errors } = await open('/');
    await page.waitForSelector('astro-island:not([ssr]) #ask');
    expect(await page.textContent('#status')).toBe('Nobody has asked yet.');
    await page.click('#ask');
    await expect.poll(() => page.textContent('#status')).toBe('Asked at last.');
    // The element's children are the page's Markdown, rendered by the page.
    expect(await page.innerHTML('#ask')).toContain('<strong>now</strong>');

    const ask = await open('/ask/');
    await ask.page.waitForSelector('astro-island:not([ssr]) #ask-again');
    await ask.page.click('#ask-again');
    await expect.poll(() => ask.page.textContent('#answer')).toBe('Answered by asker');
    expect(ask.errors).toEqual([]);
    await ask.page.close();

    await page.waitForSelector('astro-island:not([ssr]) button.votes');
    expect(await page.textContent('button.votes')).toBe('2 votes');
    await page.click('button.votes');
    await page.click('button.votes');
    await expect.poll(() => page.textContent('button.votes')).toBe('4 votes');
    // The snippet component is hydrated too, and keeps its icons.
    expect(await page.locator('.callout-note .mint-icon-wrap svg').count()).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reports the JavaScript shipped, and a page without code ships no more than in a project without code', () => {
    const line = cli.stdout.split('\n').find((l) => l.startsWith('[folio] JavaScript shipped:'));
    expect(line).toMatch(/^\[folio\] JavaScript shipped: [\d.]+ KB in \d+ file\(s\) over 6 page\(s\); the largest page, \/(compare\/)?, loads [\d.]+ KB; the smallest, \/(plain\/|404), [\d.]+ KB$/);
    const code = javascriptShipped(out);
    const plain = javascriptShipped(plainOut);
    expect(code.perPage.get('/plain/')).toBe(plain.perPage.get('/plain/'));
    expect(code.perPage.get('/')).toBeGreaterThan(code.perPage.get('/plain/')!);
    // The browser bundle of the built-in components carries no icon library, no KaTeX and no Astro
    // renderer (the page's diagrams load Mermaid's own script, the same as on a page without code).
    const mermaid = fs.statSync(path.join(out, '_folio/vendor/mermaid/mermaid.min.js')).size;
    expect(code.perPage.get('/compare/')! - mermaid - code.perPage.get('/plain/')!).toBeLessThan(300 * 1024);
  });
});

describe('event handlers without code enabled', () => {
  it('are refused naming the page, the line and how to enable code', async () => {
    const site = await buildRoot(makeContentRoot({ 'content/index.mdx': "# Home\n\n<button onClick={() => alert('hi')}>Hi</button>\n" }));
    expect(site.result.error?.code).toBe('content_invalid');
    expect(site.result.error?.message).toMatch(/^content\/index\.mdx:3:1: event handler attribute onClick=\{.*\} on <button> is code: enable code for this project with allow_code: true/);
  });
});

// Mintlify's built-in components on a Folio site: one fixture content root (test/fixtures/components)
// uses every component with every prop; it is built once, for real, and each component's HTML is
// asserted as a reader's browser gets it. The content check's rules for components (known names
// and props, JSX markup in attributes) are at the end.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeContent, checkContent } from '../../src/site/content-check/check-content.ts';
import { COMPONENTS } from '../../src/site/components/catalog.ts';
import { article, buildRoot, text, type BuiltSite } from './helpers.ts';
import { THEME_SCRIPT } from '../../src/site/theme-script.ts';

const FIXTURE = path.resolve('test/fixtures/components');
const require = createRequire(import.meta.url);
/** The SVG path data of a Font Awesome icon, as the npm package has it. */
const faPath = (pkg: string, name: string) => (require(`@fortawesome/${pkg}-svg-icons/${name}`) as { definition: { icon: [number, number, unknown, unknown, string] } }).definition.icon[4];

let site: BuiltSite;
let page: Record<'index' | 'layout' | 'api' | 'more', string>;

beforeAll(async () => {
  site = await buildRoot(FIXTURE);
  expect(site.result.error).toBeUndefined();
  const read = (p: string) => article(site.read(p));
  page = { index: read('index.html'), layout: read('layout/index.html'), api: read('api/index.html'), more: read('more/index.html') };
});

/** The first element of `html` with class `cls`, up to the start of the next element with it. */
function first(html: string, cls: string, from = 0): string {
  const at = html.indexOf(`class="${cls}`, from);
  expect(at, cls).toBeGreaterThanOrEqual(0);
  return html.slice(html.lastIndexOf('<', at), html.indexOf(`class="${cls}`, at + 1) > 0 ? html.indexOf(`class="${cls}`, at + 1) : undefined);
}

describe('callouts', () => {
  it('render each kind as a labelled note with its icon, and Callout with its own icon and colour', () => {
    for (const kind of ['note', 'tip', 'info', 'warning', 'check', 'danger']) {
      expect(page.index).toMatch(new RegExp(`<aside class="callout callout-${kind} mint-callout" role="note" aria-label="${kind[0]!.toUpperCase()}${kind.slice(1)}"><span class="mint-icon-wrap mint-callout-icon" aria-hidden="true"><svg class="mint-icon mint-icon-fa"`));
    }
    expect(text(page.index)).toContain('Do not feed the gremlins after midnight.');
    const custom = first(page.index, 'callout callout-note mint-callout" role="note" aria-label="Note" style');
    expect(custom).toContain('style="--callout-color: #FFC107"');
    expect(custom).toContain(faPath('free-solid', 'faKey')); // no regular key in the free set: solid
    expect(custom).toContain('A custom callout with a key icon.');
    expect(page.index).toContain('<aside class="callout callout-warning" role="note"><p class="callout-title">Folio style</p>');
  });
});

describe('icons', () => {
  it('inline Font Awesome (solid, regular, brands) and Lucide icons as SVG, images for URLs, and markup as written', () => {
    expect(page.index).toContain(faPath('free-solid', 'faRocket'));
    expect(page.index).toContain(faPath('free-regular', 'faBell'));
    expect(page.index.split(faPath('free-brands', 'faGithub')).length).toBe(3); // with and without iconType
    expect(page.index).toMatch(/<svg class="mint-icon mint-icon-lucide"[^>]*>[^]*?<\/svg><\/span> lucide only/);
    expect(page.index).toContain('<span class="mint-icon-wrap icon big-flag" style="color: #ff0000; --mint-icon-size: 32px" aria-hidden="true">');
    expect(page.index).toContain(`${faPath('free-solid', 'faHouse')}"/></svg></span> by name`);
    // iconLibrary (Mintlify's prop) picks the library: house is in both, and differs.
    const lucideHouse = fs.readFileSync(path.join(path.dirname(require.resolve('lucide-static/package.json')), 'icons/house.svg'), 'utf8');
    expect(page.index).toMatch(/<svg class="mint-icon mint-icon-lucide"[^>]*>[^<]*<path[^]*?<\/svg><\/span> house from Lucide/);
    expect(page.index).toContain(`${/<path d="([^"]+)"/.exec(lucideHouse)![1]}`);
    expect(page.index).toContain(`${faPath('free-regular', 'faBell')}"/></svg></span> bell from Font Awesome`);
    const card = page.layout.slice(page.layout.lastIndexOf('<div class="mint-card card"', page.layout.indexOf('Lucide card')));
    expect(card).toMatch(/^<div class="mint-card card"><span class="mint-icon-wrap mint-card-icon" aria-hidden="true"><svg class="mint-icon mint-icon-lucide"/);
    expect(page.index).toContain('<img class="mint-icon mint-icon-img" src="/images/logo.svg" alt="" /></span> an image path');
    expect(page.index).toContain('<img class="mint-icon mint-icon-img" src="https://example.com/icon.png" alt="" /></span> an image URL');
    expect(page.index).toMatch(/<svg viewBox="0 0 8 8" class="custom-svg"><circle cx="4" cy="4" r="3"><\/circle><\/svg><\/span> markup/);
  });

  it('show an unknown name as a neutral circle and name it in a build warning', () => {
    expect(page.index).toContain('<svg class="mint-icon mint-icon-unknown"');
    expect(site.result.warnings.join('\n')).toContain('page /: unknown icon "definitely-not-an-icon-name" (not a Font Awesome or Lucide name); shown as a plain circle');
    expect(site.result.warnings).toHaveLength(1);
  });
});

describe('inline components', () => {
  it('Badge: colour, size, shape, icon, stroke, disabled and class', () => {
    expect(page.index).toContain('<span class="mint-badge mint-badge-gray mint-badge-md" data-badge data-color="gray" data-size="md">Plain badge</span>');
    expect(page.index).toMatch(/<span class="mint-badge mint-badge-green mint-badge-lg mint-badge-pill mint-badge-stroke" data-badge data-color="green" data-size="lg"><span class="mint-icon-wrap"[^>]*><svg[^]*?<\/span>Stable badge<\/span>/);
    expect(page.index).toContain('<span class="mint-badge mint-badge-red mint-badge-xs mint-badge-disabled old" aria-disabled="true" data-badge data-color="red" data-size="xs">Removed badge</span>');
    expect(page.index).toContain('<span class="mint-badge mint-badge-md" style="--mint-badge: #123456" data-badge data-color="#123456" data-size="md">');
  });

  it('Tooltip: the tip is described by the trigger, which takes keyboard focus', () => {
    const tip = first(page.index, 'mint-tooltip tooltip"');
    const id = /aria-describedby="([^"]+)"/.exec(tip)?.[1];
    expect(tip).toContain(`<span class="mint-tooltip-trigger" tabindex="0" aria-describedby="${id}">API</span>`);
    expect(tip).toContain(`role="tooltip" id="${id}"><strong class="mint-tooltip-headline">API</strong><span class="mint-tooltip-tip">Application programming interface</span><a class="mint-tooltip-cta" href="/layout">Read the guide</a>`);
  });

  it('Frame: hint, content and caption in a figure', () => {
    expect(page.index).toContain('<figure class="mint-frame frame wide"><p class="mint-frame-hint">Click to enlarge</p><div class="mint-frame-body"><img src="/images/logo.svg" alt="The fixture logo"/></div><figcaption class="mint-frame-caption">The control room</figcaption></figure>');
  });
});

describe('cards and layout', () => {
  it('Card: a link when it has an href, with icon, colour, horizontal layout, image, call to action and arrow', () => {
    expect(page.layout).toContain('<div class="mint-card card"><div class="mint-card-body"><p class="mint-card-title">Plain card</p><div class="mint-card-content">A card without a link.</div></div></div>');
    const linked = first(page.layout, 'mint-card mint-card-horizontal');
    expect(linked).toMatch(/^<a href="\/api" style="--mint-accent: #0ea5e9" class="mint-card mint-card-horizontal mint-card-link card">/);
    expect(linked).toContain(faPath('free-solid', 'faRocket'));
    expect(linked).toContain('<span class="mint-card-cta">Open the API <span aria-hidden="true">→</span></span>');
    expect(linked).toContain('<span class="mint-card-arrow" aria-hidden="true">↗</span>');
    expect(page.layout).toMatch(/<a href="https:\/\/example.com\/outside" rel="noopener noreferrer" class="mint-card mint-card-link card"><img class="mint-card-img" src="\/images\/logo.svg" alt=""><span class="mint-icon-wrap mint-card-icon" aria-hidden="true"><svg viewBox="0 0 4 4"><rect width="4" height="4"><\/rect><\/svg><\/span>/);
  });

  it('CardGroup and Columns: a grid of cols columns; Tile and Panel', () => {
    const group = first(page.layout, 'mint-columns card-group" style="--mint-cols: 3"');
    expect(group.match(/class="mint-card card"/g)).toHaveLength(3);
    expect(page.layout).toContain('<div class="mint-columns cols" style="--mint-cols: 2"><div class="mint-column">Left column text.</div><div class="mint-column right">Right column text.</div></div>');
    expect(page.layout).toContain('<a class="mint-tile" href="/more"><div class="mint-tile-preview"><img src="/images/logo.svg" alt="Tile preview"/></div><p class="mint-tile-title">A tile</p><p class="mint-tile-description">With a description</p></a>');
    expect(page.layout).toContain('<aside class="mint-panel panel" aria-label="Side panel">Panel content on the side.</aside>');
  });

  it('GitHub.Repo: a card linking to the repository, from an owner/name or a github.com address, with no request to GitHub', () => {
    expect(page.layout).toMatch(/<a class="mint-github-repo mint-github-repo-inset" href="https:\/\/github.com\/lumen-labs\/lamp-firmware"><span class="mint-github-repo-icon"><svg class="mint-icon mint-icon-fa"[^]*?<span class="mint-github-repo-owner">lumen-labs\/<\/span><strong>lamp-firmware<\/strong>/);
    expect(page.layout).toContain('<a class="mint-github-repo mint-github-repo-flat" href="https://github.com/lumen-labs/lamp-app">');
    expect(site.read('layout/index.html')).not.toContain('api.github.com');
  });

  it('Steps: an ordered list; a step has its title (at titleSize), icon or number, and stepNumber restarts the count', () => {
    const steps = first(page.layout, 'mint-steps steps"');
    expect(steps).toContain('<ol class="mint-steps steps" data-title-size="h3"><li class="mint-step step"><span class="mint-step-marker" aria-hidden="true"></span><div class="mint-step-body"><p class="mint-step-title">Install the kit</p>');
    expect(steps).toMatch(/<span class="mint-step-marker mint-step-marker-icon" aria-hidden="true"><span class="mint-icon-wrap"[^>]*><svg class="mint-icon mint-icon-fa"[^]*?<p class="mint-step-title">Plug it in<\/p>/);
    expect(steps).toContain('<li class="mint-step step" id="jump" value="7" style="counter-set: mint-step 7">');
    expect(steps).toContain('<h2 class="mint-step-title">Jump ahead</h2>');
  });
});

describe('tabs, accordions and code groups', () => {
  it('Tabs: a tab list built from the Tab titles and icons, panels labelled by their tabs, defaultTabIndex shown, nested tabs their own set', () => {
    const tabs = page.layout.slice(page.layout.indexOf('<div class="mint-tabs tabs fruit-tabs" data-mint-tabs>'), page.layout.indexOf('<h2 id="accordions"'));
    const buttons = [...tabs.matchAll(/<button type="button" role="tab" class="mint-tab" id="([^"]+)" aria-controls="([^"]+)" aria-selected="(true|false)" tabindex="(0|-1)">(.*?)<\/button>/g)];
    expect(buttons.map((b) => [b[5]!.replace(/<span class="mint-icon-wrap"[^]*?<\/svg><\/span>/, '[icon]'), b[3], b[4]])).toEqual([
      ['[icon]<span>Apples</span>', 'false', '-1'],
      ['<span>Pears</span>', 'true', '0'],
      ['<span>Plums</span>', 'false', '-1'],
      ['<span>Inner one</span>', 'true', '0'],
      ['<span>Inner two</span>', 'false', '-1'],
    ]);
    for (const [, tabId, panelId, selected] of buttons) {
      expect(tabs).toMatch(new RegExp(`id="${panelId}" role="tabpanel" aria-labelledby="${tabId}" tabindex="0" data-mint-panel${selected === 'true' ? '>' : ' hidden>'}`));
    }
    expect(tabs).toContain('data-mint-tab-id="pears-tab"');
  });

  it('Tabs: a title is text, never markup', () => {
    expect(page.more).toMatch(/role="tab"[^>]*><span>&#60;img src=x onerror=alert\(1\)&#62; &#38; co<\/span><\/button>/);
    // Only inside the quoted attribute the panel keeps, never as an element.
    expect(page.more.replace(/ data-mint-tab="[^"]*"/g, '')).not.toContain('<img src=x');
  });

  it('Tabs: borderBottom and sync={false} are marked for the page script', () => {
    expect(page.more).toContain('<div class="mint-tabs mint-tabs-border tabs follow-tabs" data-mint-tabs>');
    expect(page.more).toContain('<div class="mint-tabs tabs alone-tabs" data-mint-tabs data-mint-sync="false">');
  });

  it('Accordion and Expandable: <details> with title, description, icon, id and defaultOpen', () => {
    expect(page.layout).toMatch(/<div class="mint-accordion-group accordion-group"><details class="mint-accordion accordion" id="q-one"><summary class="mint-accordion-summary"><span class="mint-icon-wrap mint-accordion-icon" aria-hidden="true"><svg class="mint-icon mint-icon-fa"[^]*?<span class="mint-accordion-title">First question<\/span><span class="mint-accordion-description">A short answer<\/span>/);
    expect(page.layout).toContain('<details class="mint-accordion accordion" id="second-question" open><summary class="mint-accordion-summary"><span class="mint-accordion-heading"><span class="mint-accordion-title">Second question</span></span></summary><div class="mint-accordion-body"><p>The second answer.</p></div></details>');
    expect(page.layout).toContain('<details class="mint-expandable expandable" open><summary class="mint-expandable-summary">Show child attributes</summary>');
  });

  it('CodeGroup: one tab per code block, named by its title or language; dropdown as a labelled select; request and response examples', () => {
    const group = page.layout.slice(page.layout.indexOf('<div class="mint-code-group code-group"'), page.layout.indexOf('<div class="mint-code-group mint-code-group-dropdown code-group"'));
    const names = [...group.matchAll(/role="tab"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
    // The fence titles (install.sh, main.py) once code blocks carry data-title; their languages until then.
    expect([['install.sh', 'main.py'], ['bash', 'python']]).toContainEqual(names);
    expect(group.match(/data-mint-panel/g)).toHaveLength(2);
    // The first block shown, the second hidden until its tab is chosen.
    expect(group).toMatch(/ data-mint-panel>[^]*npm[^]*install[^]* data-mint-panel hidden>[^]*print/);
    const dropdown = first(page.layout, 'mint-code-group mint-code-group-dropdown code-group"');
    expect(dropdown).toMatch(/<select class="mint-tab-select" aria-label="Code examples" aria-controls="[^"]+ [^"]+"><option value="0" selected>js<\/option><option value="1">ruby<\/option><\/select>/);
    expect(page.layout).toMatch(/<div class="mint-example mint-request-example" id="request-example"><div class="mint-code-group code-group" data-mint-tabs><p class="mint-code-group-label">Request<\/p>[^]*role="tab"[^>]*>bash<\/button>/);
    expect(page.layout).toMatch(/<div class="mint-example mint-response-example" id="response-example"><div class="mint-code-group mint-code-group-dropdown code-group" data-mint-tabs><p class="mint-code-group-label">Response<\/p>[^]*<option value="0" selected>json<\/option>/);
  });

  it('load their script from a same-origin file (no inline script)', () => {
    const html = site.read('layout/index.html');
    expect(html).toMatch(/<script type="module" src="\/_astro\/[^"]+\.js"><\/script>/);
    // The one inline script is the theme script, which the served sites allow by its hash.
    expect(html.replace(`<script>${THEME_SCRIPT}</script>`, '')).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});

describe('API fields', () => {
  it('ParamField: name, location, type, required, default, placeholder, deprecated, optional, pre and post labels; hidden not shown', () => {
    expect(page.api).toContain('<div class="mint-field mint-param-field field" id="param-path-gizmo_id"><div class="mint-field-head"><code class="mint-field-name">gizmo_id</code><span class="mint-field-location">path</span><span class="mint-field-type">string</span><span class="mint-field-required">required</span></div><div class="mint-field-body"><p>The gizmo to fetch.</p></div></div>');
    expect(page.api).toContain('<code class="mint-field-name">limit</code><span class="mint-field-location">query</span><span class="mint-field-type">integer</span><span class="mint-field-default">default: <code>20</code></span><span class="mint-field-placeholder">example: <code>50</code></span>');
    expect(page.api).toContain('<div class="mint-field mint-param-field mint-field-deprecated field" id="param-body-colour">');
    expect(page.api).toContain('<span class="mint-field-deprecated-label">deprecated</span><span class="mint-field-default">default: <code>blue</code></span>');
    expect(page.api).toContain('<span class="mint-field-label">beta</span><code class="mint-field-name">X-Trace</code><span class="mint-field-location">header</span><span class="mint-field-type">string</span><span class="mint-field-optional">optional</span><span class="mint-field-label">v2</span>');
    expect(page.api).not.toContain('legacy');
  });

  it('ResponseField: name, type, required, default, deprecated, with nested fields in an Expandable', () => {
    expect(page.api).toContain('<div class="mint-field mint-response-field field" id="response-id"><div class="mint-field-head"><code class="mint-field-name">id</code><span class="mint-field-type">integer</span><span class="mint-field-required">required</span></div>');
    expect(page.api).toMatch(/id="response-owner"[^]*<span class="mint-field-deprecated-label">deprecated<\/span><span class="mint-field-default">default: <code>none<\/code><\/span>[^]*<summary class="mint-expandable-summary">Show owner fields<\/summary>[^]*<code class="mint-field-name">owner.name<\/code>/);
  });
});

describe('more components', () => {
  it('Update: label as anchor, description and tags; markup labels as written', () => {
    expect(page.more).toContain('<section class="mint-update update" id="2026-03-01"><div class="mint-update-meta"><p class="mint-update-label"><a href="#2026-03-01">2026-03-01</a></p><p class="mint-update-description">Version 2.1</p><ul class="mint-update-tags"><li>Feature</li><li>Fix</li></ul></div><div class="mint-update-body"><p>Gizmos can now fly.</p></div></section>');
    expect(page.more).toContain('<p class="mint-update-label">Spring <b>release</b> <span class="mint-badge mint-badge-green mint-badge-md" data-badge data-color="green" data-size="md">new</span></p><p class="mint-update-description"><em>Markup description</em></p>');
  });

  it('Tree: folders open and close, defaultOpen, openable={false}, highlight', () => {
    expect(page.more).toMatch(/<div class="mint-tree"><ul class="mint-tree-list"><li class="mint-tree-folder"><details open><summary>[^]*?<span>src<\/span><\/summary>/);
    expect(page.more).toMatch(/<li class="mint-tree-file mint-tree-highlight"><span class="mint-tree-name">[^]*?<span>index.ts<\/span>/);
    expect(page.more).toMatch(/<li class="mint-tree-folder mint-tree-highlight"><span class="mint-tree-name">[^]*?<span>lib<\/span><\/span><ul class="mint-tree-list">/);
  });

  it('Color: swatches with names and values, light and dark, compact and table with rows', () => {
    expect(page.more).toContain('<span class="mint-color-swatch" style="background: #4f46e5"></span></span><span class="mint-color-name">brand</span><span class="mint-color-values"><code>#4f46e5</code></span>');
    expect(page.more).toContain('<span class="mint-color-swatch mint-color-swatch-dark" style="background: #0d1117" title="dark"></span>');
    expect(page.more).toContain('<div class="mint-color mint-color-table"><div class="mint-color-row"><p class="mint-color-row-title">Greens</p>');
  });

  it('Visibility shows content for humans and leaves out content for agents; View, Prompt', () => {
    expect(page.more).toContain('<div class="mint-visibility" data-for="humans">Only people read this line.</div>');
    expect(page.more).not.toContain('Only machines read this line.');
    expect(page.more).toMatch(/<section class="mint-view" data-view="Python"><p class="mint-view-title"><span class="mint-icon-wrap"[^>]*><svg class="mint-icon mint-icon-fa"[^]*?<span>Python<\/span><\/p>Python view content.<\/section>/);
    expect(page.more).toMatch(/<p class="mint-prompt-description">Ask about gizmos<\/p><button type="button" class="mint-prompt-copy" data-mint-copy="([^"]+)">Copy prompt<\/button><\/div><div class="mint-prompt-text" id="\1"><p>Explain how a gizmo flies.<\/p><\/div>/);
  });

  it('Latex: KaTeX at build time, inline and block, with its stylesheet and fonts served by the site', () => {
    expect(page.more).toMatch(/Inline math <link rel="stylesheet" href="\/_folio\/vendor\/katex\/katex.min.css"><span class="mint-latex"><span class="katex"><span class="katex-mathml"><math[^>]*><semantics><mrow><msup><mi>x<\/mi><mn>2<\/mn><\/msup>/);
    expect(page.more).toMatch(/<div class="mint-latex mint-latex-block"><span class="katex-display">[^]*<mfrac><mn>1<\/mn><mn>2<\/mn><\/mfrac>/);
    expect(site.exists('_folio/vendor/katex/katex.min.css')).toBe(true);
    const fonts = fs.readdirSync(path.join(site.out, '_folio/vendor/katex/fonts'));
    expect(fonts).toContain('KaTeX_Main-Regular.woff2');
  });

  it('Mermaid: the diagram text for Mermaid\'s script, served by the site', () => {
    expect(page.more).toContain('<div class="mermaid mint-mermaid">graph TD; A--&gt;B</div><script defer src="/_folio/vendor/mermaid/mermaid.min.js"></script>');
    expect(site.exists('_folio/vendor/mermaid/mermaid.min.js')).toBe(true);
  });
});

describe('the content check on components', () => {
  const check = (body: string, allowCode = false) => checkContent(body, { file: 'content/p.mdx', kind: 'page', allowCode }).map((p) => `${p.line}:${p.column}: ${p.message}`);

  it('accepts every component of the fixture, with every prop it uses', () => {
    for (const file of fs.readdirSync(path.join(FIXTURE, 'content'))) {
      expect(checkContent(fs.readFileSync(path.join(FIXTURE, 'content', file), 'utf8'), { file, kind: 'page' }), file).toEqual([]);
    }
  });

  it('suggests the nearest known name for an unknown component (a warning), and only a near one', () => {
    const warned = (body: string) => analyzeContent(body, { file: 'content/p.mdx', kind: 'page' }).warnings.map((p) => `${p.line}:${p.column}: ${p.message}`);
    expect(warned('<Crad title="x" />')[0]).toMatch(/^1:1: unknown component <Crad> \(did you mean <Card>\?\): its content is shown in its place; available components: Mintlify's built-in set/);
    expect(warned('<Accordian title="x">y</Accordian>')[0]).toContain('(did you mean <Accordion>?)');
    expect(warned('<note>x</note>')).toEqual([]); // lower case is an HTML element, not a component
    expect(warned('<codegroup>x</codegroup>')).toEqual([]);
    expect(warned('<Tree.Fodler name="x" />')[0]).toContain('(did you mean <Tree.Folder>?)');
    expect(warned('<Carousel />')[0]).not.toContain('did you mean');
  });

  it('ignores a prop the component does not have, as Mintlify does, with a warning naming its props and the nearest', () => {
    const warnings = (body: string) => analyzeContent(body, { file: 'content/p.mdx', kind: 'page' }).warnings.map((p) => `${p.line}:${p.column}: ${p.message}`);
    expect(check('<Card titel="Hi">x</Card>')).toEqual([]);
    expect(warnings('<Card titel="Hi">x</Card>')).toEqual([
      '1:1: <Card> has no prop "titel" (did you mean title?); it is ignored; its props: title, icon, iconType, iconLibrary, color, href, horizontal, img, cta, arrow, type, className',
    ]);
    expect(warnings('<Steps><Step title="a" onClick="x">y</Step></Steps>')[0]).toContain('<Step> has no prop "onClick"; it is ignored');
    expect(warnings('<Panel side="left">x</Panel>')).toEqual(['1:1: <Panel> has no prop "side"; it is ignored; its props: none']);
    // Its value is checked as any prop's: a script URL or an expression is still refused.
    expect(check('<Card titel="javascript:alert(1)">x</Card>')).toEqual(["1:1: attribute titel on <Card> is not allowed: javascript: URLs run script in the reader's browser"]);
    expect(check('<Card titel={fetch("/x")}>x</Card>')[0]).toMatch(/^1:1: attribute titel=\{fetch\("\/x"\)\} on <Card> is not allowed: only literal values/);
    // Every prop the catalog lists is accepted.
    for (const [name, spec] of Object.entries(COMPONENTS)) {
      const props = Object.entries(spec.props).map(([prop, kind]) => (kind === 'boolean' ? prop : kind === 'number' ? `${prop}={2}` : kind === 'list' ? `${prop}={["a"]}` : `${prop}="GET"`));
      expect(check(`<${name} ${props.join(' ')}>x</${name}>`).filter((p) => !/ApiMethod|Snippet|Callout kind/.test(p)), name).toEqual([]);
    }
  });

  it('warns, and does not refuse, when iconLibrary names a library Folio has no icons of', () => {
    const warnings = (body: string) => analyzeContent(body, { file: 'content/p.mdx', kind: 'page' }).warnings.map((p) => `${p.line}:${p.column}: ${p.message}`);
    const body = '<Card title="x" icon="house" iconLibrary="tabler">y</Card>\n\n<Icon icon="bell" iconLibrary="Lucide" />\n\n<Accordion title="a" icon="flag" iconLibrary="material">b</Accordion>';
    expect(check(body)).toEqual([]);
    expect(warnings(body)).toEqual([
      '1:1: <Card> iconLibrary "tabler": Folio renders icons of fontawesome and lucide only; the icon is looked up there as if iconLibrary were not set',
      '5:1: <Accordion> iconLibrary "material": Folio renders icons of fontawesome and lucide only; the icon is looked up there as if iconLibrary were not set',
    ]);
  });

  it('refuses script URLs in component props', () => {
    expect(check('<Card title="x" href="javascript:alert(1)">y</Card>')).toEqual([
      "1:1: attribute href on <Card> is not allowed: javascript: URLs run script in the reader's browser",
    ]);
    expect(check('<Tooltip tip="t" cta="c" href=" JAVASCRIPT:alert(1)">y</Tooltip>')[0]).toContain('attribute href on <Tooltip> is not allowed');
  });

  it('accepts JSX markup in a markup prop when everything in it passes the page\'s checks', () => {
    expect(check('<Card title="x" icon={<svg viewBox="0 0 8 8"><path d="M0 0h8v8z" fill="currentColor" /></svg>}>y</Card>')).toEqual([]);
    expect(check('<Update label={<>New <b>{"API"}</b> <Badge color="green">beta</Badge></>} description={<em>soon</em>}>x</Update>')).toEqual([]);
    expect(check('<Accordion title={<>Q {/* a comment */}</>}>x</Accordion>')).toEqual([]);
  });

  it('refuses JSX markup that holds code, handlers, script URLs or forbidden elements', () => {
    expect(check('<Card title="x" icon={<svg onload="alert(1)" />}>y</Card>')).toEqual(['1:1: event handler attribute "onload" is not allowed']);
    expect(check('<Update label={<>{process.env}</>}>x</Update>')[0]).toMatch(/^1:1: expression \{process.env\} is not allowed: only literal values/);
    expect(check('<Update label={<a href="javascript:alert(1)">x</a>}>x</Update>')[0]).toContain('attribute href on <a> is not allowed: javascript: URLs');
    expect(check('<Card title={<script>alert(1)</script>}>y</Card>')[0]).toContain('the <script> element is not allowed');
    expect(check('<Card title={<Fancy />}>y</Card>')).toEqual([]); // a warning: its content in its place
    expect(check('<Card title={<b {...rest}>x</b>}>y</Card>')[0]).toContain('spread attributes are not allowed on <b>');
    expect(check('<Card title={<div set:html="<img src=x onerror=alert(1)>" />}>y</Card>')[0]).toContain('directive set:html on <div> is not allowed');
    expect(check('<Card title={<b style={window.x}>x</b>}>y</Card>')[0]).toContain('attribute style={window.x} on <b> is not allowed');
    // Markup only where a prop shows content: not in a boolean, a link or a number.
    expect(check('<Card horizontal={<b>x</b>} href={<b>y</b>}>y</Card>')).toHaveLength(2);
  });

});

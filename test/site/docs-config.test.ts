// The docs.json model (no build): every supported key of Mintlify's schema is read, mint.json maps
// onto the same model, unknown keys are warnings with their position, and invalid values of
// supported keys fail naming `docs.json:line:col` and the key.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContentRoot } from '../../src/site/content-check/check-root.ts';
import { parseSiteFileIsolated } from '../../src/site/content-check/check-pool.ts';
import { formatProblem } from '../../src/site/content-check/check-content.ts';
import { DocsConfigError, parseDocsJson, themeOverrideCss } from '../../src/site/config/docs-config.ts';
import { loadDocsConfig } from '../../src/site/config/site-config-file.ts';
import { makeContentRoot } from './helpers.ts';
import { parseMintJson } from '../../src/site/config/mint-config.ts';
import { MULTI_SITE_DOCS_JSON } from './fixtures/multi-site.ts';

const issuesOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DocsConfigError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected a DocsConfigError');
};

describe('docs.json', () => {
  it('drops a font source on another host whatever its form (a scheme, or //host), keeping the family', () => {
    for (const source of ['//fonts.example.com/brand.woff2', 'https://fonts.example.com/brand.woff2']) {
      const { config, warnings } = parseDocsJson(JSON.stringify({ name: 'Fonts', navigation: { pages: ['index'] }, fonts: { family: 'Brand', source } }));
      expect(warnings.map((w) => w.key), source).toEqual(['fonts.source']);
      expect(config.fonts, source).toEqual({ family: 'Brand' });
    }
  });

  it('reads every supported key of a full Mintlify docs.json without a warning but for the unsupported one and a font on another host', () => {
    const { config, warnings } = parseDocsJson(JSON.stringify(MULTI_SITE_DOCS_JSON, null, 2));
    expect(warnings.map((w) => `${w.key}: ${w.message}`)).toEqual([
      'interaction: not supported by Folio yet: ignored',
      'fonts.body.source: a font on another host is not loaded (Folio serves fonts from the site itself): add the file to the repository and give its path, such as "/fonts/brand.woff2"',
    ]);
    // The URL is dropped, the family kept; the site's own font file stays.
    expect(config.fonts?.body).toEqual({ family: 'Lantern Sans' });
    expect(config.fonts?.heading?.source).toBe('/fonts/lantern-serif.woff2');
    expect(warnings[1]).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(config.navigation?.languages?.[1]?.banner).toEqual({ content: 'Lantern 2 ya está aquí.' });
    expect(config.name).toBe('Lantern Docs');
    expect(config.logo).toEqual({ light: '/logo-light.svg', dark: '/logo-dark.svg', href: 'https://lantern.example' });
    expect(config.favicon).toEqual({ light: '/favicon-light.svg', dark: '/favicon-dark.svg' });
    expect(config.appearance).toEqual({ default: 'dark' });
    expect(config.navbar?.primary).toEqual({ type: 'button', label: 'Sign up', href: 'https://lantern.example/signup' });
    expect(config.footer?.socials).toEqual({ github: 'https://github.com/lantern-example', x: 'https://x.com/lantern_example' });
    expect(config.banner).toEqual({ content: 'Lantern 2 is out: read the [upgrade guide](/upgrade).', dismissible: true });
    expect(config.redirects).toHaveLength(4);
    expect(config.seo?.metatags).toEqual({ 'og:site_name': 'Lantern' });
    expect(config.search?.prompt).toBe('Search Lantern');
    expect(config.errors?.['404']?.title).toBe('Lost in the dark');
    const en = config.navigation?.languages?.[0];
    expect(en?.versions?.[0]?.tabs?.[0]?.groups?.[1]).toMatchObject({ group: 'Guides', tag: 'NEW', root: 'guides/index' });
    expect(config.navigation?.global?.anchors?.[0]).toEqual({ anchor: 'Community', href: 'https://community.lantern.example', icon: 'users' });
  });

  it('reads the rest of the schema: background, fonts, dropdowns, products, icon objects, indexing, 404 redirect', () => {
    const { config, warnings } = parseDocsJson(
      JSON.stringify({
        background: { color: { light: '#fff', dark: '#000' }, decoration: 'grid' },
        fonts: { family: 'Inter', weight: 400, heading: { family: 'Lora', source: '/fonts/lora.woff2', format: 'woff2' } },
        seo: { indexing: 'all' },
        errors: { '404': { redirect: true } },
        navigation: {
          products: [{ product: 'Payments', description: 'Take money', icon: { name: 'wallet', style: 'solid' }, dropdowns: [{ dropdown: 'SDKs', pages: ['index'] }] }],
        },
      }),
    );
    expect(warnings).toEqual([]);
    expect(config.background?.decoration).toBe('grid');
    expect(config.fonts?.heading?.family).toBe('Lora');
    expect(config.seo?.indexing).toBe('all');
    expect(config.errors?.['404']?.redirect).toBe(true);
    expect(config.navigation?.products?.[0]).toMatchObject({ product: 'Payments', icon: 'wallet', dropdowns: [{ dropdown: 'SDKs', pages: ['index'] }] });
  });

  it('warns about unknown keys at any depth, with their line and column, and keeps the rest', () => {
    const text = '{\n  "name": "A",\n  "colours": {},\n  "navigation": {\n    "tabs": [\n      { "tab": "T", "pages": ["index"], "sparkle": true }\n    ]\n  },\n  "colors": { "primary": "#123456", "brand": "#fff" }\n}';
    const { config, warnings } = parseDocsJson(text);
    expect(warnings.map((w) => `${w.file}:${w.line}:${w.column}: ${w.key}: ${w.message}`)).toEqual([
      'docs.json:3:3: colours: unknown key: ignored',
      'docs.json:6:41: navigation.tabs.0.sparkle: unknown key: ignored',
      'docs.json:9:37: colors.brand: unknown key: ignored',
    ]);
    expect(config.colors).toEqual({ primary: '#123456' });
    expect(config.navigation?.tabs?.[0]).toEqual({ tab: 'T', pages: ['index'] });
    // A social platform Folio has no icon for is ignored the same way.
    const socials = parseDocsJson('{"footer": {"socials": {"mastodon": "https://m.example/@a", "github": "https://github.com/a"}}}');
    expect(socials.config.footer?.socials).toEqual({ github: 'https://github.com/a' });
    expect(socials.warnings.map((w) => w.key)).toEqual(['footer.socials.mastodon']);
  });

  it('fails on invalid values of supported keys, naming file, line, column and key', () => {
    const text = '{\n  "redirects": [\n    { "source": "/a", "destination": "/b" },\n    { "source": "old", "destination": "javascript:alert(1)" }\n  ],\n  "navigation": { "languages": [{ "language": "english!", "pages": [] }] },\n  "appearance": { "default": "sepia" }\n}';
    const issues = issuesOf(() => parseDocsJson(text));
    // A source without "/" in front is Mintlify's too: read as "/old" (docs-json-refs.test.ts).
    expect(issues.some((i) => i.includes('redirects.1.source'))).toBe(false);
    expect(issues.some((i) => i.startsWith('docs.json:4:24: redirects.1.destination: must be a path starting with "/"'))).toBe(true);
    expect(issues.some((i) => i.startsWith('docs.json:6:35: navigation.languages.0.language: must be a language tag'))).toBe(true);
    expect(issues.some((i) => i.startsWith('docs.json:7:19: appearance.default:'))).toBe(true);
  });

  it('refuses redirects that could not be matched or that would let a request choose the host', () => {
    const bad = (rule: object) => issuesOf(() => parseDocsJson(JSON.stringify({ redirects: [rule] })))[0];
    expect(bad({ source: '/a/:rest*/b', destination: '/x' })).toContain('must be the last segment');
    expect(bad({ source: '/a/:slug', destination: 'https://:slug.example.com/' })).toContain('whose host has no ":param"');
    expect(bad({ source: '/a', destination: '//evil.example' })).toContain('not "//"');
    expect(bad({ source: '/a', destination: '/\\evil.example' })).toContain('must be a path');
  });

  it('reads `contextual` (the page menu): built-in and own options; names Folio does not offer are left out with a warning; bad options fail naming the field', () => {
    const { config, warnings } = parseDocsJson(JSON.stringify({ contextual: { options: ['copy', 'grok', 'claude', { title: 'Ask', description: 'Ours', href: { base: 'https://ask.example.com', query: [{ key: 'q', value: '$page' }] } }] } }, null, 2));
    expect(config.contextual?.options).toEqual(['copy', 'claude', { title: 'Ask', description: 'Ours', href: { base: 'https://ask.example.com', query: [{ key: 'q', value: '$page' }] } }]);
    expect(warnings.map((w) => `${w.line}:${w.column} ${w.key}: ${w.message}`)).toEqual([
      '5:7 contextual.options.1: "grok" is not an option Folio offers (copy, view, chatgpt, claude, perplexity, mcp, cursor, vscode): left out of the page menu',
    ]);
    const bad = (option: unknown) => issuesOf(() => parseDocsJson(JSON.stringify({ contextual: { options: [option] } })))[0];
    expect(bad({ title: 'X', href: 'javascript:alert(1)' })).toMatch(/^docs\.json:1:\d+: contextual\.options\.0\.href: must be an http\(s\) URL/);
    expect(bad({ title: 'X', href: { base: 'https://a.example', query: [{ key: 'q' }] } })).toContain('contextual.options.0.href.query.0.value:');
    expect(bad({ href: 'https://a.example' })).toContain('contextual.options.0.title:');
    expect(bad(3)).toContain('contextual.options.0: must be one of "copy", "view"');
  });

  it('refuses script URLs and markup in links, logos and icons', () => {
    expect(issuesOf(() => parseDocsJson('{"navbar": {"links": [{"label": "x", "href": "javascript:alert(1)"}]}}'))[0]).toContain('navbar.links.0.href');
    expect(issuesOf(() => parseDocsJson('{"logo": {"light": "/a.svg\\" onerror=\\"x"}}'))[0]).toContain('logo');
    expect(issuesOf(() => parseDocsJson('{"navigation": {"groups": [{"group": "G", "icon": "<svg onload=x>", "pages": []}]}}'))[0]).toContain('navigation.groups.0.icon');
  });

  it('maps colours onto the theme: primary the accent in light mode, `light` in dark mode, `dark` the light mode\'s text shade', () => {
    const { config } = parseDocsJson(JSON.stringify({ colors: { primary: '#0f766e', light: '#5eead4', dark: '#115e59' } }));
    expect(themeOverrideCss(config)).toBe('html:root{--docs-accent:#0f766e;--docs-primary:#115e59}html:root[data-theme=dark]{--docs-accent:#5eead4;--docs-primary:#5eead4}');
  });
});

describe('mint.json', () => {
  const mint = {
    name: 'Old Docs',
    logo: { light: '/l.svg', dark: '/d.svg' },
    favicon: '/favicon.png',
    colors: { primary: '#112233', light: '#445566', background: { dark: '#000000' } },
    topbarLinks: [{ name: 'Support', url: 'mailto:help@example.com' }],
    topbarCtaButton: { type: 'github', url: 'https://github.com/example/repo' },
    modeToggle: { default: 'light', isHidden: true },
    footerSocials: { github: 'https://github.com/example' },
    versions: ['v2', 'v1'],
    tabs: [{ name: 'API', url: 'api' }],
    anchors: [{ name: 'Blog', url: 'https://blog.example.com', icon: 'newspaper' }],
    navigation: [
      { group: 'Start', pages: ['index'] },
      { group: 'Old start', version: 'v1', pages: ['v1/index'] },
      { group: 'Endpoints', pages: ['api/list', { group: 'Nested', pages: ['api/nested/one'] }] },
    ],
    redirects: [{ source: '/a', destination: '/b' }],
    analytics: { ga4: { measurementId: 'G-1' } },
  };

  it('maps onto the docs.json model: versions from groups, tabs by prefix, URL anchors as global anchors', () => {
    const { config, warnings } = parseMintJson(JSON.stringify(mint, null, 2));
    expect(warnings.map((w) => w.key)).toEqual(['analytics']);
    expect(config.colors).toEqual({ primary: '#112233', light: '#445566' });
    expect(config.background).toEqual({ color: { dark: '#000000' } });
    expect(config.navbar).toEqual({ links: [{ label: 'Support', href: 'mailto:help@example.com' }], primary: { type: 'github', href: 'https://github.com/example/repo' } });
    expect(config.appearance).toEqual({ default: 'light', strict: true });
    expect(config.footer).toEqual({ socials: { github: 'https://github.com/example' } });
    expect(config.navigation?.global?.anchors).toEqual([{ anchor: 'Blog', href: 'https://blog.example.com', icon: 'newspaper' }]);
    const [v2, v1] = config.navigation?.versions ?? [];
    expect(v2?.version).toBe('v2');
    expect(v2?.tabs?.map((t) => [t.tab, t.groups?.map((g) => g.group)])).toEqual([
      ['Documentation', ['Start']],
      ['API', ['Endpoints']],
    ]);
    expect(v1?.tabs?.[0]?.groups?.map((g) => g.group)).toEqual(['Start', 'Old start']);
    expect(config.redirects).toEqual([{ source: '/a', destination: '/b' }]);
  });

  it('configures a content root without docs.json; with both, docs.json wins and the check says so', async () => {
    const mintOnly = makeContentRoot({ 'mint.json': JSON.stringify(mint, null, 2), 'content/index.mdx': '# Home\n' });
    expect(loadDocsConfig(mintOnly).name).toBe('Old Docs');
    const report = await checkContentRoot(mintOnly);
    expect(report.problems).toEqual([]);
    // Its redirect leads to no page of this root: a broken link, a warning like the unknown key.
    expect(report.warnings.map(formatProblem)).toEqual([
      expect.stringMatching(/^mint\.json:\d+:3: analytics: unknown key: ignored$/),
      expect.stringMatching(/^mint\.json:\d+:\d+: redirect \/a → \/b: redirected to \/b, where there is no page or file$/),
    ]);
    const both = makeContentRoot({ 'mint.json': '{"name": "Old"}', 'docs.json': '{"name": "New"}', 'content/index.mdx': '# Home\n' });
    expect(loadDocsConfig(both).name).toBe('New');
    expect((await checkContentRoot(both)).warnings.map(formatProblem)).toEqual(['mint.json:1:1: not read: docs.json configures this site']);
  });

  it('fails naming mint.json, line and column', () => {
    const issues = issuesOf(() => parseMintJson('{\n  "colors": { "primary": "url(x);" }\n}'));
    expect(issues[0]).toMatch(/^mint\.json:2:15: colors\.primary: must be a CSS colour/);
  });
});

describe('docs.json in the check processes (off the event loop of the server and of check:site)', () => {
  it('answers as the parse in this process does: configuration and warnings, or the same problems', async () => {
    const docs = { name: 'Acme', colors: { primary: '#0f766e' }, contextual: { options: ['copy'] }, navigation: { $ref: './nav.json' } };
    const root = makeContentRoot({ 'nav.json': JSON.stringify({ groups: [{ group: 'Start', pages: ['index'] }], extra: 1 }) });
    const text = JSON.stringify(docs, null, 2);
    const { locate: _, ...here } = parseDocsJson(text, root);
    expect(here.warnings.length).toBeGreaterThan(0);
    expect(await parseSiteFileIsolated('docs.json', text, root)).toEqual({ ...here, redirectsAt: [] });

    const invalid = JSON.stringify({ name: 'Bad', colors: { primary: 'red;}' }, navigation: { groups: [{ group: 7 }] } }, null, 2);
    const issues = (() => {
      try {
        parseDocsJson(invalid);
      } catch (error) {
        return (error as DocsConfigError).issues;
      }
    })();
    expect(issues).toHaveLength(2);
    await expect(parseSiteFileIsolated('docs.json', invalid)).rejects.toMatchObject({ name: 'DocsConfigError', issues });
    await expect(parseSiteFileIsolated('mint.json', '{"name": 7}')).rejects.toMatchObject({ issues: [expect.objectContaining({ file: 'mint.json', key: 'name' })] });
  });

  it('a docs.json the schema takes longer than the limit to check is one problem of the deployment\'s check, naming docs.json', async () => {
    // 300,000 invalid values (3.6 MB): seconds of the schema's work, on the event loop before.
    const hostile = JSON.stringify({ name: 'Many', navigation: { groups: new Array(300_000).fill({ group: 7 }) } });
    const root = makeContentRoot({ 'docs.json': hostile, 'index.mdx': '# Home\n' });
    const before = process.env.FOLIO_CHECK_TIMEOUT_MS;
    process.env.FOLIO_CHECK_TIMEOUT_MS = '200';
    try {
      const report = await checkContentRoot(root);
      expect(report.problems.map(formatProblem)).toEqual(['docs.json:1:1: this file is too complex to check within 0.2 s: shorten it, or fix its invalid values']);
      expect(report.config).toBeUndefined();
      // The check process was replaced: the next check reads docs.json as usual.
      fs.writeFileSync(path.join(root, 'docs.json'), '{"name": "Fine"}');
      expect(await checkContentRoot(root)).toMatchObject({ problems: [], config: { name: 'Fine' } });
    } finally {
      if (before === undefined) delete process.env.FOLIO_CHECK_TIMEOUT_MS;
      else process.env.FOLIO_CHECK_TIMEOUT_MS = before;
    }
  });
});

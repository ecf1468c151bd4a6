// The navigation model (no build): docs.json navigation resolved against pages into sections, what
// each page shows (sidebar, tabs, switchers with the same page in another version or language,
// hreflang alternates, previous/next), hidden pages and groups, global anchors, and errors that
// name the entry.
import { describe, expect, it } from 'vitest';
import { parseDocsJson } from '../../src/site/config/docs-config.ts';
import { NavigationError, navLinks, resolveNavigation, type NavPageInfo } from '../../src/site/navigation.ts';
import { pageHref } from '../../src/site/page-rules.ts';
import { MULTI_SITE_DOCS_JSON, MULTI_SITE_FILES } from './fixtures/multi-site.ts';

const infos = (paths: string[], extra: Record<string, Partial<NavPageInfo>> = {}) =>
  new Map(paths.map((p): [string, NavPageInfo] => [p, { path: p, link: { type: 'link', title: `T:${p}`, path: p, href: pageHref(p) }, ...extra[p] }]));

const multiPages = Object.keys(MULTI_SITE_FILES)
  .filter((f) => f.startsWith('content/'))
  .map((f) => f.slice('content/'.length).replace(/\.mdx$/, ''));
const multi = () => resolveNavigation(parseDocsJson(JSON.stringify(MULTI_SITE_DOCS_JSON)).config.navigation!, infos(multiPages, { secret: { hidden: true } }), pageHref);

describe('navigation model', () => {
  it('gives each page its own section: sidebar, current tab, version and language', () => {
    const nav = multi();
    const quickstart = nav.forPage('quickstart');
    expect(navLinks(quickstart.sidebar).map((l) => l.path)).toEqual(['index', 'quickstart', 'guides/upgrade', 'guides/deep/wicks']);
    expect(quickstart.language).toBe('en');
    expect(quickstart.version).toBe('v2');
    const tabs = quickstart.levels.find((l) => l.kind === 'tabs')!.links;
    expect(tabs.map((t) => [t.label, t.href, t.current])).toEqual([
      ['Guides', '/', true],
      ['Reference', '/reference/cli/', false],
    ]);
    const cli = nav.forPage('reference/cli');
    expect(navLinks(cli.sidebar).map((l) => l.path)).toEqual(['reference/cli']);
    expect(cli.levels.find((l) => l.kind === 'tabs')!.links.find((t) => t.current)?.label).toBe('Reference');
  });

  it('switches version and language to the same page when it exists, else to the first page', () => {
    const nav = multi();
    const level = (p: string, kind: string) => nav.forPage(p).levels.find((l) => l.kind === kind)!.links.map((l) => [l.label, l.href, l.current]);
    expect(level('quickstart', 'versions')).toEqual([
      ['v2', '/quickstart/', true],
      ['v1', '/v1/quickstart/', false],
    ]);
    expect(level('v1/quickstart', 'versions')).toEqual([
      ['v2', '/quickstart/', false],
      ['v1', '/v1/quickstart/', true],
    ]);
    expect(level('guides/upgrade', 'versions')[1]).toEqual(['v1', '/v1/', false]);
    expect(level('es/quickstart', 'languages')).toEqual([
      ['en', '/quickstart/', false],
      ['es', '/es/quickstart/', true],
    ]);
    expect(level('reference/cli', 'languages')[1]).toEqual(['es', '/es/', false]);
    expect(nav.forPage('es/quickstart').language).toBe('es');
    expect(nav.forPage('es/quickstart').version).toBeUndefined();
  });

  it('lists hreflang alternates (with x-default) only for pages translated at least once', () => {
    const nav = multi();
    expect(nav.forPage('es/index').alternates).toEqual([
      { hreflang: 'en', href: '/' },
      { hreflang: 'es', href: '/es/' },
      { hreflang: 'x-default', href: '/' },
    ]);
    expect(nav.forPage('reference/cli').alternates).toEqual([]);
  });

  it('gives a language’s or version’s pages its own header links, footer and banner, the rest the site’s', () => {
    const nav = multi();
    const es = nav.forPage('es/quickstart').overrides;
    expect(es.navbar?.links?.map((l) => l.label)).toEqual(['Estado']);
    expect(es.footer?.links?.[0]?.header).toBe('Empresa');
    expect(es.banner?.content).toBe('Lantern 2 ya está aquí.');
    expect(nav.forPage('v1/quickstart').overrides).toEqual({ banner: { content: 'You are reading the docs of Lantern 1.' } });
    expect(nav.forPage('quickstart').overrides).toEqual({});
  });

  it('orders previous and next within the section, the group root first', () => {
    const nav = multi();
    expect(nav.forPage('quickstart')).toMatchObject({ prev: 'index', next: 'guides/index' });
    expect(nav.forPage('guides/index')).toMatchObject({ prev: 'quickstart', next: 'guides/upgrade' });
    expect(nav.forPage('guides/deep/wicks').next).toBeUndefined();
    expect(nav.forPage('v1/index')).toMatchObject({ next: 'v1/quickstart' });
  });

  it('keeps hidden pages out of every sidebar, gives them the default section and says they are not listed', () => {
    const nav = multi();
    const secret = nav.forPage('secret');
    expect(secret.listed).toBe(false);
    expect(secret.version).toBe('v2');
    expect(navLinks(secret.sidebar).some((l) => l.path === 'secret')).toBe(false);
    expect(nav.forPage('quickstart').listed).toBe(true);
    expect(nav.defaultSidebar).toBe(nav.forPage('index').sidebar);
  });

  it('adds global anchors to every page, external ones marked', () => {
    const nav = multi();
    for (const p of ['quickstart', 'es/index', 'v1/index']) {
      expect(nav.forPage(p).levels.find((l) => l.kind === 'anchors')!.links).toEqual([
        { label: 'Community', href: 'https://community.lantern.example', current: false, external: true, icon: 'users' },
      ]);
    }
  });

  it('carries group icon, tag, expanded and root into the sidebar model; hidden groups and tabs stay out', () => {
    const { config } = parseDocsJson(
      JSON.stringify({
        navigation: {
          tabs: [
            { tab: 'Docs', groups: [{ group: 'G', icon: 'star', tag: 'NEW', expanded: true, root: 'a', pages: ['b', { group: 'Secret', hidden: true, pages: ['c'] }] }] },
            { tab: 'Hidden', hidden: true, pages: ['d'] },
            { tab: 'Blog', href: 'https://blog.example.com' },
          ],
        },
      }),
    );
    const nav = resolveNavigation(config.navigation!, infos(['a', 'b', 'c', 'd']), pageHref);
    const b = nav.forPage('b');
    expect(b.sidebar).toEqual([{ type: 'group', title: 'G', icon: 'star', tag: 'NEW', expanded: true, rootHref: '/a/', items: [{ type: 'link', title: 'T:b', path: 'b', href: '/b/' }] }]);
    expect(b.levels[0]!.links.map((l) => [l.label, l.href, l.external])).toEqual([
      ['Docs', '/a/', false],
      ['Blog', 'https://blog.example.com', true],
    ]);
    // A page in a hidden group or tab is still built and placed; its tab shows while it is current.
    expect(nav.forPage('c').listed).toBe(true);
    expect(nav.forPage('d').levels[0]!.links.map((l) => l.label)).toEqual(['Docs', 'Hidden', 'Blog']);
  });

  it('derives the sidebar from folders when navigation lists no pages, and adds generated groups to the default section', () => {
    const fallback = [{ type: 'link' as const, title: 'Home', path: 'index', href: '/' }];
    const extra = [{ type: 'group' as const, title: 'API', items: [{ type: 'link' as const, title: 'List', path: 'api-reference/list', href: '/api-reference/list/' }] }];
    const nav = resolveNavigation({ global: { anchors: [{ anchor: 'Site', href: 'https://example.com' }] } }, infos(['index', 'api-reference/list']), pageHref, { fallbackSidebar: () => fallback, extraGroups: extra });
    expect(navLinks(nav.forPage('index').sidebar).map((l) => l.path)).toEqual(['index', 'api-reference/list']);
    expect(nav.forPage('index').next).toBe('api-reference/list');
  });

  it('names the entry of a page that does not exist', () => {
    const { config } = parseDocsJson(JSON.stringify({ navigation: { versions: [{ version: '1', groups: [{ group: 'G', pages: ['a', 'missing'] }] }] } }));
    const error = (() => {
      try {
        resolveNavigation(config.navigation!, infos(['a']), pageHref);
      } catch (e) {
        return e;
      }
    })() as NavigationError;
    expect(error).toBeInstanceOf(NavigationError);
    expect(error.key).toBe('navigation.versions.0.groups.0.pages.1');
    expect(error.message).toBe('no page "missing"');
  });
});

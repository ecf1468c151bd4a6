// The sidebar HTML: every link on small sites; on big ones, groups without the current page collapse.
import { describe, expect, it } from 'vitest';
import { navHtml } from '../../src/site/layouts/nav-html.ts';
import type { NavGroup, NavItem } from '../../src/site/navigation.ts';

const link = (path: string, title = path) => ({ type: 'link' as const, title, path, href: `/${path}/` });
const group = (title: string, count: number): NavGroup => ({
  type: 'group',
  title,
  items: Array.from({ length: count }, (_, i) => link(`${title}/p${i}`)),
});

describe('sidebar HTML', () => {
  it('lists every link of a small site, escapes titles and marks the current page', () => {
    const nav: NavItem[] = [link('index', 'Home <b>'), group('guides', 3)];
    const html = navHtml(nav, '/guides/p1/');
    expect(html).toBe(
      '<ul><li><a href="/index/">Home &#60;b&#62;</a></li><li class="nav-group"><p class="group-title">guides</p><ul>' +
        '<li><a href="/guides/p0/">guides/p0</a></li><li><a href="/guides/p1/" aria-current="page">guides/p1</a></li>' +
        '<li><a href="/guides/p2/">guides/p2</a></li></ul></li></ul>',
    );
    expect(navHtml(nav, undefined)).not.toContain('aria-current');
  });

  it('puts a method badge before links that name one (generated API pages)', () => {
    const html = navHtml([{ ...link('api/create'), method: 'POST' }], undefined);
    expect(html).toContain('<a href="/api/create/"><span class="api-method nav-method" style="--method-color: var(--docs-info)" data-method="POST">POST</span> api/create</a>');
  });

  it('collapses the groups that do not hold the current page on a site of more than 150 links', () => {
    const nav: NavItem[] = [link('index'), group('a', 80), group('b', 80)];
    const html = navHtml(nav, '/b/p5/');
    expect(html).toContain('<li><a class="group-link" href="/a/p0/">a</a></li>');
    expect(html).not.toContain('href="/a/p1/"');
    expect(html.match(/href="\/b\/p\d+\/"/g)).toHaveLength(80);
    expect(html).toContain('<a href="/b/p5/" aria-current="page">');
  });
});

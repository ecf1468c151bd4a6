// The sidebar HTML: every link on small sites; on big ones, groups without the current page collapse.
import { describe, expect, it } from 'vitest';
import { iconHtml, navHtml } from '../../src/site/layouts/nav-html.ts';
import type { NavGroup, NavItem } from '../../src/site/navigation.ts';

const link = (path: string, title = path) => ({ type: 'link' as const, title, path, href: `/${path}/` });
const group = (title: string, count: number): NavGroup => ({
  type: 'group',
  title,
  items: Array.from({ length: count }, (_, i) => link(`${title}/p${i}`)),
});

describe('sidebar HTML', () => {
  it('lists every link of a small site, escapes titles and marks the current page (with the names Mintlify documents for custom CSS)', () => {
    const nav: NavItem[] = [link('index', 'Home <b>'), group('guides', 3)];
    const html = navHtml(nav, '/guides/p1/');
    expect(html).toBe(
      '<ul id="sidebar-content"><li><a href="/index/">Home &#60;b&#62;</a></li><li class="nav-group sidebar-group"><p class="group-title sidebar-group-header">guides</p><ul>' +
        '<li><a href="/guides/p0/">guides/p0</a></li><li data-active><a href="/guides/p1/" aria-current="page">guides/p1</a></li>' +
        '<li><a href="/guides/p2/">guides/p2</a></li></ul></li></ul>',
    );
    expect(navHtml(nav, undefined)).not.toMatch(/aria-current|data-active/);
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

  it('gives each page of a big site its own marks, however many pages share the sidebar of their group', () => {
    const nested: NavGroup = { type: 'group', title: 'b1', rootHref: '/b/p1/', items: [link('b/p1'), link('b/p2')] };
    const untitled: NavGroup = { type: 'group', title: '', items: [link('c/p0'), { type: 'group', title: 'c1', items: [link('c/p1')] }] };
    // b/p1 is listed twice, and is also the nested group's root.
    const b: NavGroup = { type: 'group', title: 'b', items: [nested, ...group('b', 80).items.slice(3), link('b/p1')] };
    const nav: NavItem[] = [link('index'), group('a', 80), b, untitled];
    // A current link's list item is marked too (Mintlify's `#sidebar-content li[data-active]`).
    const marked = (html: string) => {
      const links = [...html.matchAll(/<a href="([^"]+)" aria-current="page">/g)].map((m) => m[1]);
      expect([...html.matchAll(/<li data-active><a href="([^"]+)" aria-current="page">/g)].map((m) => m[1])).toEqual(links);
      expect(html.match(/data-active/g)?.length ?? 0).toBe(links.length);
      return links;
    };
    const opened = (html: string) => [...html.matchAll(/<details data-nav-group="(\d+)" open>/g)].length;
    // Twice round, so the second sidebar of each page comes from what the first ones left behind.
    for (let round = 0; round < 2; round++) {
      const p1 = navHtml(nav, '/b/p1/');
      expect(marked(p1)).toEqual(['/b/p1/', '/b/p1/']);
      expect(p1).toContain('<summary class="group-title sidebar-group-header"><a href="/b/p1/">b1</a></summary>');
      expect(opened(p1)).toBe(1);
      const p2 = navHtml(nav, '/b/p2/');
      expect(marked(p2)).toEqual(['/b/p2/']);
      expect(opened(p2)).toBe(1);
      // A page of b outside b1: b1 collapses to its first link.
      const p40 = navHtml(nav, '/b/p40/');
      expect(marked(p40)).toEqual(['/b/p40/']);
      expect(p40).toContain('<li><a class="group-link" href="/b/p1/">b1</a></li>');
      expect(p40).not.toContain('href="/b/p2/"');
      const a7 = navHtml(nav, '/a/p7/');
      expect(marked(a7)).toEqual(['/a/p7/']);
      expect(a7).toContain('<li><a class="group-link" href="/b/p1/">b</a></li>');
      expect(a7.match(/href="\/a\/p\d+\/"/g)).toHaveLength(80);
      // The untitled group always shows; its nested group opens only around its own page.
      expect(marked(navHtml(nav, '/c/p1/'))).toEqual(['/c/p1/']);
      expect(opened(navHtml(nav, '/c/p1/'))).toBe(1);
      expect(navHtml(nav, '/c/p0/')).toContain('<li><a class="group-link" href="/c/p1/">c1</a></li>');
      expect(marked(navHtml(nav, undefined))).toEqual([]);
    }
  });

  it('writes an icon only where there is one to show: none for a name no icon library has, nor for no icon (no empty box)', () => {
    expect(iconHtml('rocket')).toMatch(/^<span class="nav-icon" data-icon="rocket" aria-hidden="true"><svg[^>]*>.*<\/svg><\/span>$/);
    expect(iconHtml('book-open-cover')).toBe(''); // Font Awesome Pro only
    expect(iconHtml('no-such-icon-anywhere')).toBe('');
    expect(iconHtml(undefined)).toBe('');
    const html = navHtml([{ ...group('guides', 1), icon: 'not-an-icon' }, { ...link('start', 'Start'), icon: 'not-an-icon' }], undefined);
    expect(html).not.toContain('nav-icon');
  });
});

// Two builds of different content roots at the same time must not interfere (each has its own
// Astro root); the roots also cover navigation configured in docs.json.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, listFiles, sidebarOf, text, type BuiltSite } from './helpers.ts';

const rootFiles = (name: string, pages: string[]) => ({
  'docs.json': JSON.stringify({
    name,
    navigation: [
      { group: `${name} start`, pages: ['index'] },
      { group: `${name} guides`, pages: [pages[1], { group: 'Deeper', pages: [pages[0]] }] },
    ],
  }),
  'content/index.mdx': `# ${name} home\n\nWelcome to ${name}.\n`,
  [`content/${pages[0]}.mdx`]: `# ${name} page zero\n\n<Snippet file="shared.mdx" vars={{ site: "${name}" }} />\n`,
  [`content/${pages[1]}.mdx`]: `# ${name} page one\n\nOnly in ${name}.\n`,
  '_snippets/shared.mdx': 'Snippet of {site}.\n',
});

let alpha: BuiltSite;
let beta: BuiltSite;
beforeAll(async () => {
  [alpha, beta] = await Promise.all([
    buildFixture(rootFiles('Alpha', ['a/deep', 'a/first'])),
    buildFixture(rootFiles('Beta', ['b/deep', 'b/first'])),
  ]);
});

describe('concurrent builds', () => {
  it('both succeed', () => {
    expect(alpha.result.error).toBeUndefined();
    expect(beta.result.error).toBeUndefined();
  });

  it('each output holds only its own pages and text', () => {
    const pagesOf = (site: BuiltSite) => listFiles(site.out).filter((f) => f.endsWith('index.html')).sort();
    expect(pagesOf(alpha)).toEqual(['a/deep/index.html', 'a/first/index.html', 'index.html']);
    expect(pagesOf(beta)).toEqual(['b/deep/index.html', 'b/first/index.html', 'index.html']);
    expect(text(alpha.read('a/deep/index.html'))).toContain('Snippet of Alpha.');
    expect(text(beta.read('b/deep/index.html'))).toContain('Snippet of Beta.');
    expect(alpha.read('llms-full.txt')).not.toContain('Beta');
    expect(beta.read('llms-full.txt')).not.toContain('Alpha');
  });

  it('leaves the Sitemap line out of robots.txt and uses site paths when no site URL is set', () => {
    expect(alpha.read('robots.txt')).toBe('User-agent: *\nAllow: /\n');
    expect(alpha.read('sitemap.xml')).toContain('<loc>/a/first/</loc>');
    expect(alpha.read('index.html')).toContain('<link rel="canonical" href="/">');
  });

  it('orders the sidebar and previous/next links by docs.json navigation, with nested groups', () => {
    const html = alpha.read('a/first/index.html');
    const sidebar = sidebarOf(html);
    expect([...sidebar.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/', '/a/first/', '/a/deep/']);
    expect(text(sidebar)).toMatch(/Alpha start.*Alpha guides.*Deeper/);
    expect(html).toMatch(/rel="prev" href="\/"/);
    expect(html).toMatch(/rel="next" href="\/a\/deep\/"/);
  });
});

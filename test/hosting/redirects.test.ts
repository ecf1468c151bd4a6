// Redirect matching (no server): exact paths, `:param`, `:param*`, `:param+`, `*` and `prefix*`,
// the first rule in file order winning, destinations filled in safely, permanent or not.
import { describe, expect, it } from 'vitest';
import { RedirectTable } from '../../src/hosting/redirects.ts';

const table = (rules: Array<{ source: string; destination: string; permanent?: boolean }>, notFoundToHome = false) => new RedirectTable(rules, { notFoundToHome });

describe('redirects', () => {
  it('answers exact paths with 308 (permanent, the default) or 307, ignoring a trailing slash', () => {
    const t = table([
      { source: '/old', destination: '/new' },
      { source: '/beta/', destination: '/preview', permanent: false },
    ]);
    expect(t.match('/old')).toEqual({ status: 308, location: '/new' });
    expect(t.match('/old/')).toEqual({ status: 308, location: '/new' });
    expect(t.match('/beta')).toEqual({ status: 307, location: '/preview' });
    expect(t.match('/older')).toBeUndefined();
    expect(t.match('/old/more')).toBeUndefined();
    expect(t.match('/OLD')).toBeUndefined();
  });

  it('fills in :param, :param* and :param+ captures', () => {
    const t = table([
      { source: '/docs/:section/:page', destination: '/guides/:page/in/:section' },
      { source: '/beta/:slug*', destination: '/v2/:slug*' },
      { source: '/api/:path+', destination: '/reference/:path+' },
    ]);
    expect(t.match('/docs/setup/install')?.location).toBe('/guides/install/in/setup');
    expect(t.match('/beta/a/b/c')?.location).toBe('/v2/a/b/c');
    expect(t.match('/beta')?.location).toBe('/v2/');
    expect(t.match('/api/users/list')?.location).toBe('/reference/users/list');
    expect(t.match('/api')).toBeUndefined();
  });

  it('matches * and prefix* wildcards and puts each capture where the destination has *', () => {
    const t = table([
      { source: '/articles/concepts-*', destination: '/collections/overview' },
      { source: '/old/article-*', destination: '/new/article-*' },
      { source: '/legacy/*', destination: 'https://archive.example.com/*' },
    ]);
    expect(t.match('/articles/concepts-getting-started')?.location).toBe('/collections/overview');
    expect(t.match('/articles/other')).toBeUndefined();
    expect(t.match('/old/article-123')?.location).toBe('/new/article-123');
    expect(t.match('/legacy/a/b')?.location).toBe('https://archive.example.com/a/b');
    expect(t.match('/legacy')).toBeUndefined();
  });

  it('lets the first rule in the file win, whichever kind of pattern it is', () => {
    const t = table([
      { source: '/guides/:slug', destination: '/first/:slug' },
      { source: '/guides/install', destination: '/second' },
      { source: '/tools/install', destination: '/exact-first' },
      { source: '/tools/:slug*', destination: '/pattern-second' },
    ]);
    expect(t.match('/guides/install')?.location).toBe('/first/install');
    expect(t.match('/tools/install')?.location).toBe('/exact-first');
    expect(t.match('/tools/other')?.location).toBe('/pattern-second');
  });

  it('keeps the query string, and never loops on itself', () => {
    const t = table([
      { source: '/search', destination: '/find' },
      { source: '/with-query', destination: '/target?tab=2' },
      { source: '/:slug*', destination: '/:slug*' },
    ]);
    expect(t.match('/search', '?q=lamp')?.location).toBe('/find?q=lamp');
    expect(t.match('/with-query', '?q=lamp')?.location).toBe('/target?tab=2');
    expect(t.match('/anything/here')).toBeUndefined();
  });

  it('never lets a capture choose another host or scheme', () => {
    const t = table([
      { source: '/go/:slug*', destination: '/:slug*' },
      { source: '/out/:slug*', destination: '/:slug*/x' },
      { source: '/ext/:page', destination: 'https://docs.example.com/:page' },
    ]);
    // An empty capture would otherwise leave `//x`, a protocol-relative URL to the host "x".
    expect(t.match('/out')?.location).toBe('/x');
    expect(t.match('/go/evil.example.com')?.location).toBe('/evil.example.com');
    expect(t.match('/go/%2F%2Fevil.example.com')?.location).toBe('/%2F%2Fevil.example.com');
    expect(t.match('/ext/a%3Fb%40c')?.location).toBe('https://docs.example.com/a%3Fb%40c');
  });

  it('decodes request segments before matching and sends unknown paths home when errors.404.redirect is on', () => {
    const t = table([{ source: '/caf%C3%A9', destination: '/coffee' }], true);
    expect(t.match('/caf%C3%A9')?.location).toBe('/coffee');
    expect(t.notFound('/missing')).toEqual({ status: 307, location: '/' });
    expect(t.notFound('/')).toBeUndefined();
    expect(table([]).notFound('/missing')).toBeUndefined();
  });

  it('finds the rule among thousands', () => {
    const rules = Array.from({ length: 5000 }, (_, i) => ({ source: i % 2 ? `/old/page-${i}` : `/moved/${i}/:slug*`, destination: `/new/${i}` }));
    const t = table(rules);
    expect(t.match('/old/page-4999')?.location).toBe('/new/4999');
    expect(t.match('/moved/4998/a/b')?.location).toBe('/new/4998');
    expect(t.match('/old/page-5000')).toBeUndefined();
  });
});

// A docs repository (Folio's layout) with one broken internal link of each kind, and links that work:
// test/site/broken-links-build.test.ts and test/service/deployments-broken-links.test.ts build it.
/** A site with one broken link of each kind, and links that work. */
export const BROKEN_LINK_SITE: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Kestrel',
    navigation: { pages: ['index', 'guides/setup'] },
    redirects: [
      { source: '/old-setup', destination: '/guides/setup' },
      { source: '/gone', destination: '/nowhere' },
      { source: '/ping', destination: '/pong' },
      { source: '/pong', destination: '/ping' },
    ],
  }, null, 2),
  'content/index.mdx': [
    '---',
    'title: Kestrel',
    '---',
    '',
    'Start with [setup](/guides/setup), or the [old address](/old-setup).',
    '',
    'Read [the missing page](/guides/missing) first.',
    '',
    '<Card title="Lost" href="/guides/lost">A card to nowhere.</Card>',
    '',
    'See [the perch step](/guides/setup#choose-a-perch) and [a wrong step](/guides/setup#no-such-step).',
    '',
    'The [old page](/gone) and [the circle](/ping).',
  ].join('\n'),
  'content/guides/setup.mdx': [
    '---',
    'title: Setup',
    '---',
    '',
    '## Choose a perch',
    '',
    'Back to [the start](/) or [above](#choose-a-perch).',
  ].join('\n'),
};

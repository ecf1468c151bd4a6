// A docs repository (Folio's layout) with one broken internal link of each kind, and links that work:
// test/site/broken-links-build.test.ts and test/service/deployments-broken-links.test.ts build it;
// OPENAPI_LINK_SITE links to pages generated from an OpenAPI file (deployments and `folio broken-links`).
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

/**
 * A repository in Mintlify's layout whose API group lists one of the two operations of its OpenAPI
 * file, and a page linking to the generated page, to an operation that does not exist and to the
 * one the group does not list (no page either): the last two are broken.
 */
export const OPENAPI_LINK_SITE: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Osprey',
    navigation: { groups: [{ group: 'Start', pages: ['index'] }, { group: 'API', openapi: 'nests.json', pages: ['GET /nests'] }] },
  }, null, 2),
  'nests.json': JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Nests', version: '1' },
    paths: { '/nests': { get: { summary: 'List nests', responses: { '200': { description: 'OK' } } }, post: { summary: 'Add a nest', responses: { '201': { description: 'Added' } } } } },
  }, null, 2),
  'index.mdx': [
    '---',
    'title: Osprey',
    '---',
    '',
    'See [the nests](/api-reference/list-nests) and [its parameters](/api-reference/list-nests#parameters).',
    '',
    'Not an operation: [eggs](/api-reference/list-eggs).',
    '',
    'Not listed in docs.json: [adding](/api-reference/add-a-nest).',
  ].join('\n'),
};

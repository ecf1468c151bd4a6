// A build's check lists the site's broken internal links as warnings, each at its file:line:col,
// in the build log and its "warnings by kind" summary (docs/decisions.md#broken-links-in-deployments).
import { describe, expect, it } from 'vitest';
import { buildFixture, checkSite, makeContentRoot } from './helpers.ts';
import { BROKEN_LINK_SITE } from '../helpers/broken-link-site.ts';

const EXPECTED = [
  'content/index.mdx:7:6: link "/guides/missing": no page or file has this address',
  'content/index.mdx:9:1: link "/guides/lost": no page or file has this address',
  'content/index.mdx:11:56: link "/guides/setup#no-such-step": no heading or element with id "no-such-step" on /guides/setup/',
  'content/index.mdx:13:5: link "/gone": redirected to /nowhere, where there is no page or file',
  'content/index.mdx:13:27: link "/ping": redirects in a loop: /ping → /pong → /ping',
];

describe('broken internal links in a build', () => {
  it('are warnings of the build log naming file:line:col, grouped by kind at its end; the site still builds', async () => {
    const site = await buildFixture(BROKEN_LINK_SITE);
    expect(site.result.ok).toBe(true);
    // Build log lines read `[folio] warning: file:line:col: message`.
    const linkWarnings = site.result.warnings.map((w) => w.replace(/^.*?\[folio\] warning: /, '')).filter((w) => / (?:link|redirect) "?\//.test(w));
    for (const expected of EXPECTED) expect(linkWarnings).toContain(expected);
    expect(linkWarnings.some((w) => /^docs\.json:\d+:\d+: redirect \/gone → \/nowhere: redirected to \/nowhere, where there is no page or file$/.test(w))).toBe(true);
    expect(linkWarnings.some((w) => /^docs\.json:\d+:\d+: redirect \/ping → \/pong: redirects in a loop/.test(w))).toBe(true);
    // Links that work are not warnings.
    expect(linkWarnings.join('\n')).not.toMatch(/"\/guides\/setup"|"\/old-setup"|choose-a-perch|link "\/"/);
    const log = site.result.log.join('\n');
    expect(log).toContain('[folio] warning: content/index.mdx:7:6: link "/guides/missing": no page or file has this address');
    expect(log).toMatch(/2 × link "…": no page or file has this address/);
    expect(log).toContain('link "…": no heading or element with id "…" on …');
    expect(site.exists('guides/setup/index.html')).toBe(true);
  }, 240_000);

  it('are listed by check:site as warnings, which do not fail it', async () => {
    const { code, lines } = await checkSite(makeContentRoot(BROKEN_LINK_SITE), ['--all-warnings']);
    expect(code).toBe(0);
    for (const expected of EXPECTED) expect(lines.map((l) => l.replace(': warning: ', ': '))).toContain(expected);
  }, 120_000);
});

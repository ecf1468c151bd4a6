// The page rules both the site build and the pages API use (docs/decisions.md#pages): title and address.
import { describe, expect, it } from 'vitest';
import { pageHref, pageSlug, pageTitle, startsWithTitleHeading } from '../../src/site/page-rules.ts';

describe('page title', () => {
  it('is the frontmatter title, else the first # heading outside code and comments, else the file name', () => {
    expect(pageTitle('From frontmatter', '# Heading\n', 'guides/install')).toBe('From frontmatter');
    expect(pageTitle(undefined, 'Intro\n\n# The heading ##\n', 'guides/install')).toBe('The heading');
    expect(pageTitle(undefined, '```md\n# not this\n```\n\n{/* # nor this */}\n\n# This one\n', 'x')).toBe('This one');
    expect(pageTitle(undefined, 'No heading.\n', 'guides/getting-started')).toBe('Getting started');
    expect(pageTitle(undefined, '', 'guides/index')).toBe('Guides');
    expect(pageTitle(undefined, '', 'index')).toBe('Home');
    expect(pageTitle(42, '', 'a_b')).toBe('A b');
  });

  it('knows when the body brings its own title heading', () => {
    expect(startsWithTitleHeading('{/* note */}\n\n# Title\n')).toBe(true);
    expect(startsWithTitleHeading('Text\n\n# Later\n')).toBe(false);
    expect(startsWithTitleHeading("import Tally from '/snippets/tally.jsx';\nimport { A } from './a.jsx';\n\n# Title\n")).toBe(true);
  });
});

describe('page address', () => {
  it.each([
    ['index', '/', undefined],
    ['guides/index', '/guides/', 'guides'],
    ['guides/install', '/guides/install/', 'guides/install'],
    ['Guides/Setup Guide', '/Guides/Setup%20Guide/', 'Guides/Setup Guide'],
  ])('%s is served at %s', (path, href, slug) => {
    expect(pageHref(path)).toBe(href);
    expect(pageSlug(path)).toBe(slug);
  });
});

// The content check inside the build (a Sätteri plugin on the tree the build compiles): the Astro
// step alone, without the check that normally runs before it, still refuses untrusted content.
// Each case is one of the parser differences a security review used to get code and script past a
// check that read pages with another parser.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coldAstro } from '../../src/builder/astro-step.ts';
import { buildSite } from '../../src/builder/build.ts';
import { buildOutDir } from '../../src/builder/build-roots.ts';
import { checkedDigest, writeCheckedFile } from '../../src/site/content-check/checked-files.ts';
import { listFiles, makeContentRoot } from './helpers.ts';

/**
 * Runs only the Astro step of a build (no check before it) on `files`; returns its exit and log.
 * `checked`: digests handed to the build as if the check before it had passed them.
 */
async function astroOnly(files: Record<string, string>, allowCode = false, checked: string[] = []) {
  const root = makeContentRoot(files);
  const log: string[] = [];
  const limits = { timeoutMs: 180_000, signal: new AbortController().signal, dispose: () => undefined };
  const child = await coldAstro.start({ contentRoot: root, allowCode }, limits, (line) => log.push(line));
  try {
    if (checked.length) await writeCheckedFile(child.buildRoot, checked);
    child.go();
    const outcome = await child.done;
    const out = buildOutDir(child.buildRoot);
    const html = fs.existsSync(out) ? listFiles(out).filter((f) => f.endsWith('.html')).map((f) => fs.readFileSync(path.join(out, f), 'utf8')).join('\n') : '';
    return { outcome, errors: log.filter((l) => l.startsWith('[folio] error: ')).map((l) => l.slice('[folio] error: '.length)), html };
  } finally {
    await child.cleanup();
  }
}


/** The reason the check gives for a data: URL as a link target (content-check/script-urls.ts). */
const DATA_LINK = 'a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead';
describe('the build refuses what the check refuses, on its own tree', () => {
  it('an expression in a GFM table cell, inside what another parser reads as a code span (MDX)', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.mdx': '# Home\n\n| a | b |\n|---|---|\n| `x | <b data-leak={process.env.PATH}>t</b> | ` |\n',
    });
    expect(outcome).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/^content\/index\.mdx:5:\d+: attribute data-leak=\{process\.env\.PATH\} on <b> is not allowed/)]);
    expect(html).toBe('');
  });

  it('an expression in a footnote definition, tab-indented or not, in a snippet (MDX)', async () => {
    const { outcome, errors } = await astroOnly({
      'content/index.mdx': '# Home\n\n<Snippet file="note.mdx" />\n',
      '_snippets/note.mdx': 'Note[^1]\n\n[^1]: {globalThis.process.env.PATH}\n\n\t{process.exit(1)}\n',
    });
    expect(outcome).toBe(1);
    expect(errors).toEqual([
      expect.stringMatching(/^_snippets\/note\.mdx:3:7: expression \{globalThis\.process\.env\.PATH\} is not allowed/),
      expect.stringMatching(/^_snippets\/note\.mdx:5:2: expression \{process\.exit\(1\)\} is not allowed/),
    ]);
  });

  it('JSX markup in a component attribute: a handler and an expression inside it', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.mdx': '# Home\n\n<Card title="x" icon={<svg onload="alert(1)" />}>y</Card>\n\n<Update label={<>{process.env.PATH}</>}>z</Update>\n',
    });
    expect(outcome).toBe(1);
    expect(errors).toEqual([
      'content/index.mdx:3:1: event handler attribute "onload" is not allowed',
      expect.stringMatching(/^content\/index\.mdx:5:1: expression \{process\.env\.PATH\} is not allowed/),
    ]);
    expect(html).toBe('');
  });

  it('an event handler in raw HTML in a table cell and in a footnote of a .md page', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.md': '---\ntitle: Home\n---\n\n| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | c |\n\nSee[^1]\n\n[^1]: <img src=x onerror=alert(2)>\n',
    });
    expect(outcome).toBe(1);
    expect(errors).toEqual([
      'content/index.md:7:3: event handler attribute "onerror" is not allowed',
      'content/index.md:11:7: event handler attribute "onerror" is not allowed',
    ]);
    expect(html).not.toMatch(/onerror/);
  });

  it('a JSX event handler in a footnote (MDX)', async () => {
    const { outcome, errors } = await astroOnly({
      'content/index.mdx': '# Home\n\nSee[^1]\n\n[^1]: <img src="x" onerror="alert(1)"/>\n',
    });
    expect(outcome).toBe(1);
    expect(errors).toEqual(['content/index.mdx:5:7: event handler attribute "onerror" is not allowed']);
  });

  it('data: URLs as link targets, in any spelling: Markdown links and autolinks, JSX, raw HTML, a Card href (MDX and .md)', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.mdx': '# Home\n\n[a](DaTa:text/html,<b>x</b>)\n\n<a href="  &#100;ata:text/html,x">b</a>\n\n<Card title="c" href=" data:image/svg+xml,<svg/>">d</Card>\n',
      'content/plain.md': '---\ntitle: Plain\n---\n\n<data:text/html,x>\n\n| a |\n|---|\n| <a href="&#x64;ata:text/html,x">y</a> |\n',
    });
    expect(outcome).toBe(1);
    expect(errors.toSorted()).toEqual([
      `content/index.mdx:3:1: URL "DaTa:text/html,<b>x</b>" is not allowed: ${DATA_LINK}`,
      `content/index.mdx:5:1: attribute href on <a> is not allowed: ${DATA_LINK}`,
      `content/index.mdx:7:1: attribute href on <Card> is not allowed: ${DATA_LINK}`,
      `content/plain.md:5:1: URL "data:text/html,x" is not allowed: ${DATA_LINK}`,
      `content/plain.md:9:3: attribute href on <a> is not allowed: ${DATA_LINK}`,
    ]);
    expect(html).toBe('');
  });

  it('data: URLs as link targets the check used to miss: the first of two reference definitions (the one Markdown uses), an attribute right after a quoted value', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.md': '# Home\n',
      'content/refs.md': '---\ntitle: Refs\n---\n\n[a][ref]\n\n[ref]: data:text/html,x\n[ref]: https://example.com/\n\n<div><a title="t"href="data:text/html,y">b</a></div>\n',
    });
    expect(errors.toSorted()).toEqual([
      `content/refs.md:10:1: attribute href on <a> is not allowed: ${DATA_LINK}`,
      `content/refs.md:7:1: URL "data:text/html,x" is not allowed: ${DATA_LINK}`,
    ]);
    expect(outcome).toBe(1);
    expect(html).toBe('');
  });

  it('a data: URL an SVG animation sets as a link target (to, values) is refused as the href itself would be', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.md': '# Home\n',
      'content/anim.md': '---\ntitle: Anim\n---\n\n<svg><a><set attributeName="href" to="data:text/html,x"/><text y="20">c</text></a></svg>\n\n<svg><a><animate attributeName="href" values="#a; DATA:text/html,y" dur="1s"/><text y="20">d</text></a></svg>\n',
    });
    expect(errors.toSorted()).toEqual([
      `content/anim.md:5:9: attribute to on <set> is not allowed: ${DATA_LINK}`,
      `content/anim.md:7:9: attribute values on <animate> is not allowed: ${DATA_LINK}`,
    ]);
    expect(outcome).toBe(1);
    expect(html).toBe('');
  });

  it('a page changed after the check before the build passed it is checked again (what passed was other text)', async () => {
    const passed = '# Home\n\nNothing to see.\n';
    const { outcome, errors, html } = await astroOnly(
      { 'content/index.mdx': '# Home\n\n{process.env.PATH}\n' },
      false,
      [checkedDigest(passed, { file: 'content/index.mdx', kind: 'page' }), checkedDigest('# Home\n\n{process.env.PATH}\n', { file: 'content/other.mdx', kind: 'page' })],
    );
    expect(outcome).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/^content\/index\.mdx:3:1: expression \{process\.env\.PATH\} is not allowed/)]);
    expect(html).toBe('');
  });

  it('builds content that passes, with the check in place', async () => {
    const { outcome, errors, html } = await astroOnly({
      'content/index.mdx': '# Home\n\n| a | b |\n|---|---|\n| `x \\| y` | {"literal"} |\n\nSee[^1]\n\n[^1]: A note.\n\n![dot](data:image/png;base64,iVBORw0KGgo=)\n',
    });
    expect(errors).toEqual([]);
    expect(outcome).toBe(0);
    expect(html).toContain('literal');
    // An inline data:image/… image is content (Mintlify pages use them), unlike a data: link target.
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
  });
});

describe('a build that allows code (buildSite allowCode)', () => {
  it('builds export const and expressions, and still refuses event handlers written as text, both before and inside the build', async () => {
    const root = makeContentRoot({ 'content/index.mdx': '# Home\n\nexport const answer = 40 + 2\n\nThe answer is {answer}.\n' });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
    const built = await buildSite({ contentRoot: root, outDir: out, allowCode: true, timeoutMs: 180_000 });
    expect(built.error).toBeUndefined();
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('The answer is 42.');
    expect((await buildSite({ contentRoot: root, outDir: out, timeoutMs: 180_000 })).error?.message).toMatch(/^content\/index\.mdx:3:1: import and export are not allowed/);

    // A handler written as code is React's (test/site/code-components.test.ts); as text it is an inline script.
    const { outcome, errors } = await astroOnly({ 'content/index.mdx': '# Home\n\n<img src="x" onerror="alert(1)" />\n' }, true);
    expect(outcome).toBe(1);
    expect(errors).toEqual(['content/index.mdx:3:1: event handler attribute "onerror" is not allowed: write it as code, onerror={() => …}, which React runs']);
  });
});

// Page path rules (docs/decisions.md#pages), frontmatter editing and locks, as units.
import { describe, expect, it } from 'vitest';
import { editFrontmatter, pageFileText, parsePage } from '../../src/service/pages/files.ts';
import { createLocks } from '../../src/service/pages/locks.ts';
import { newPagePathProblem, pageAddress, pagePathProblem, sameAddressPath } from '../../src/service/pages/paths.ts';

describe('paths the API may create', () => {
  it('accepts lower-case segments of [a-z0-9][a-z0-9_-]*, up to 8 segments and 200 characters', () => {
    const eight = 'a/b/c/d/e/f/g/h';
    const longest = `${'x'.repeat(100)}/${'y'.repeat(99)}`;
    expect(longest.length).toBe(200);
    for (const ok of ['index', 'guides/install', 'v2/api_ref/get-user', '0', eight, longest]) expect(newPagePathProblem(ok), ok).toBeUndefined();
  });

  it('refuses each broken rule with a message naming path', () => {
    const cases: Record<string, string> = {
      '': 'path must not be empty',
      [`${'x'.repeat(100)}/${'y'.repeat(100)}`]: 'path must be at most 200 characters',
      'guides/': 'path must not end with "/"',
      '/guides': 'path must not start with "/" (write guides/install, not /guides/install)',
      'a/b/c/d/e/f/g/h/i': 'path must have at most 8 segments',
      'a//b': 'path must not contain empty segments ("//")',
      '../etc': 'path must not contain "." or ".." segments',
      'a/./b': 'path must not contain "." or ".." segments',
      '_snippets/x': 'path segment "_snippets" must not start with "_" (reserved for files that are not pages)',
      'Guides': 'path segment "Guides" must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
      '-x': 'path segment "-x" must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
      'a.mdx': 'path segment "a.mdx" must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
      'a\\b': 'path segment "a\\b" must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
    };
    for (const [bad, message] of Object.entries(cases)) expect(newPagePathProblem(bad), bad).toBe(message);
  });
});

describe('paths a read accepts', () => {
  it('accepts repository names the API would not create', () => {
    for (const ok of ['Guides/Setup Guide', '_drafts/x', 'v1.2/notes', 'é']) expect(pagePathProblem(ok), ok).toBeUndefined();
  });

  it('refuses anything that could leave content/', () => {
    for (const bad of ['', '..', '../x', 'a/../../x', '/etc/passwd', 'a\\..\\b', 'a\u0000b', 'a//b', 'a/', '.git/config', 'x'.repeat(1025)]) {
      expect(pagePathProblem(bad), bad).toMatch(/^path /);
    }
  });
});

describe('addresses', () => {
  it('index is the site root; folder index pages are the folder; others end with /', () => {
    expect(pageAddress('index')).toBe('');
    expect(pageAddress('guides/index')).toBe('guides/');
    expect(pageAddress('guides/install')).toBe('guides/install/');
    expect(pageAddress('Guides/Setup Guide')).toBe('Guides/Setup%20Guide/');
  });

  it('names the other path served at the same address', () => {
    expect(sameAddressPath('guides')).toBe('guides/index');
    expect(sameAddressPath('guides/index')).toBe('guides');
    expect(sameAddressPath('index')).toBeUndefined();
  });
});

describe('page files', () => {
  it('resolves titles like the site: frontmatter, then the first heading outside code, then the file name', () => {
    expect(parsePage('---\ntitle: FM\n---\n# H\n', 'a').title).toBe('FM');
    expect(parsePage('```\n# code\n```\n{/* # c */}\n# Real\n', 'a').title).toBe('Real');
    expect(parsePage('text', 'guides/getting-started').title).toBe('Getting started');
    expect(parsePage('text', 'guides/index').title).toBe('Guides');
    expect(parsePage('text', 'index').title).toBe('Home');
  });

  it('never evaluates non-YAML frontmatter, and survives invalid YAML', () => {
    const js = parsePage('---js\n{ title: (() => { throw new Error("ran") })() }\n---\nbody', 'a');
    expect(js.title).toBe('A');
    const broken = parsePage('---\ntitle: [oops\n---\nbody\n', 'a');
    expect(broken).toMatchObject({ title: 'A', body: 'body\n' });
    expect(() => editFrontmatter(broken.yaml, { title: 'x' })).toThrow(/frontmatter is not valid YAML/);
  });

  it('edits title and description only, keeping other keys and comments; round-trips the body', () => {
    const page = parsePage('---\n# note\ntitle: Old\nlayout_hint: wide\n---\n\nBody\n', 'a');
    const yaml = editFrontmatter(page.yaml, { title: 'true', description: 'D: colon' });
    const text = pageFileText(yaml, page.body);
    expect(text).toBe('---\n# note\ntitle: "true"\nlayout_hint: wide\ndescription: "D: colon"\n---\n\nBody\n');
    expect(parsePage(text, 'a')).toMatchObject({ title: 'true', description: 'D: colon', body: '\nBody\n' });
    expect(pageFileText(editFrontmatter('title: x\n', { description: null }), 'b')).toBe('---\ntitle: x\n---\nb');
  });
});

describe('locks', () => {
  it('runs work with one key one at a time, in order, and other keys alongside', async () => {
    const locks = createLocks();
    const events: string[] = [];
    // a1 holds its lock until the test lets it go: no timing decides the order.
    let finishA1!: () => void;
    const a1Held = new Promise<void>((resolve) => (finishA1 = resolve));
    const step = (name: string, until?: Promise<void>) => async () => {
      events.push(`start ${name}`);
      await until;
      events.push(`end ${name}`);
      return name;
    };
    const all = Promise.all([locks.run('a', step('a1', a1Held)), locks.run('a', step('a2')), locks.run('b', step('b1'))]);
    await expect.poll(() => events).toContain('end b1');
    expect(events).not.toContain('start a2');
    finishA1();
    const results = await all;
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(events.indexOf('end a1')).toBeLessThan(events.indexOf('start a2'));
    expect(events.indexOf('end b1')).toBeLessThan(events.indexOf('end a1'));
    await expect(locks.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await locks.run('a', async () => 'after a failure')).toBe('after a failure');
  });
});

// The pages API over HTTP against the real server (docs/decisions.md#pages; issue 5).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContentRoot } from '../../src/site/content-check/check-root.ts';
import { apiDocument } from '../helpers/api-contract.ts';
import { admin, client, orgWithKey, removeDir, request, startServer, uniqueSlug, type Json, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  // A repository connection may queue a sync; this one fails at once and never touches the root.
  server = await startServer({ env: { FOLIO_GIT_URL: 'file:///nonexistent/{owner}/{name}.git', FOLIO_GIT_PROTOCOLS: 'file' } });
  api = client(server.url, server.defaultKey);
  other = client(server.url, (await orgWithKey(server.dataDir, 'other-org')).key);
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

interface TestProject {
  id: string;
  url: string;
  root: string;
  content: string;
  pages: string;
}

async function newProject(body: Record<string, unknown> = {}): Promise<TestProject> {
  const res = await api('POST', '/v1/projects', { body: { name: 'Docs', slug: uniqueSlug('pg'), ...body } });
  expect(res.status).toBe(201);
  const root = path.join(server.dataDir, 'projects', res.body.id, 'root');
  return { id: res.body.id, url: res.body.url, root, content: path.join(root, 'content'), pages: `/v1/projects/${res.body.id}/pages` };
}

/** Writes a file into a content root directly, as a sync would. */
async function put(root: string, rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

const createPage = (p: TestProject, body: Record<string, unknown>, as = api) => as('POST', p.pages, { body });

/** Creates a page with `content` that the content check must refuse (400, nothing written); returns the message. */
async function refusedPage(p: TestProject, content: string): Promise<string> {
  const res = await createPage(p, { path: 'checked', title: 'Checked', content });
  expect(res.status, content).toBe(400);
  expect(res.body.error).toBe('invalid_request');
  expect(existsSync(path.join(p.content, 'checked.mdx'))).toBe(false);
  return res.body.message as string;
}

async function listAll(p: TestProject, limit = 100): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const res = await api('GET', `${p.pages}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

describe('create and get', () => {
  it('creates a page (201) as content/{path}.mdx with title and description in frontmatter; get returns it', async () => {
    const p = await newProject();
    const content = '# Install\n\nRun `npm install acme`.\n\n<ApiMethod method="get" />\n';
    const res = await createPage(p, { path: 'guides/install', title: 'Install: the CLI', description: 'Set up Acme', content });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['path', 'title', 'description', 'content', 'source', 'url', 'updated_at']);
    expect(res.body).toMatchObject({
      path: 'guides/install', title: 'Install: the CLI', description: 'Set up Acme', content, source: 'api', url: `${p.url}guides/install/`,
    });
    expect(res.body.updated_at).toMatch(ISO_MS);
    const file = await readFile(path.join(p.content, 'guides/install.mdx'), 'utf8');
    const parsed = matter(file, {});
    expect(parsed.data).toEqual({ title: 'Install: the CLI', description: 'Set up Acme' });
    expect(parsed.content).toBe(content);
    expect(res.body.updated_at).toBe((await stat(path.join(p.content, 'guides/install.mdx'))).mtime.toISOString());

    const got = await api('GET', `${p.pages}/guides/install`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('maps index pages to the site root and to their folder address', async () => {
    const p = await newProject();
    expect((await createPage(p, { path: 'index', title: 'Home', content: 'Welcome.' })).body.url).toBe(p.url);
    expect((await createPage(p, { path: 'guides/index', title: 'Guides', content: 'All guides.' })).body.url).toBe(`${p.url}guides/`);
    const home = await api('GET', `${p.pages}/index`);
    expect(home.body).toMatchObject({ path: 'index', title: 'Home', content: 'Welcome.', url: p.url });
    expect(existsSync(path.join(p.content, 'index.mdx'))).toBe(true);
    expect(existsSync(path.join(p.content, 'guides/index.mdx'))).toBe(true);
  });

  it('accepts the longest allowed path: 8 segments, 200 characters', async () => {
    const p = await newProject();
    const longest = ['a'.repeat(25), ...Array.from({ length: 7 }, (_, i) => `${i}`.repeat(24))].join('/');
    expect(longest.length).toBe(200);
    expect((await createPage(p, { path: longest, title: 'Deep', content: 'deep' })).status).toBe(201);
    expect((await api('GET', `${p.pages}/${longest}`)).body.path).toBe(longest);
    for (const ok of ['a', '0-9_x', 'a_b/c-d']) expect((await createPage(p, { path: ok, title: 'Ok', content: 'x' })).status, ok).toBe(201);
  });

  it('refuses bad paths with 400 naming path and writes nothing', async () => {
    const p = await newProject();
    const bad = [
      '', '../escape', 'a/../b', './a', '_partial', 'guides/_draft', 'Guides', 'guides/Install', 'a/b/c/d/e/f/g/h/i',
      `${'a'.repeat(100)}/${'b'.repeat(100)}`, 'a//b', 'guides/', '/guides', 'a b', 'a.b', 'é', '-lead', 'a\\b', 'a\u0000b',
    ];
    expect(bad[9]!.length).toBe(201);
    for (const pagePath of bad) {
      const res = await createPage(p, { path: pagePath, title: 'T', content: 'x' });
      expect(res.status, JSON.stringify(pagePath)).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.message, JSON.stringify(pagePath)).toMatch(/^path /);
    }
    expect((await createPage(p, { path: 7, title: 'T', content: 'x' })).body.message).toBe('path must be a string');
    expect(existsSync(p.root)).toBe(false);
    expect((await api('GET', p.pages)).body).toEqual({ data: [], next_cursor: null });
  });

  it('validates the other fields: required, types, unknown fields, title and description rules', async () => {
    const p = await newProject();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: undefined }, 'title is required'],
      [{ content: undefined }, 'content is required'],
      [{ title: 5 }, 'title must be a string'],
      [{ content: ['x'] }, 'content must be a string'],
      [{ title: '' }, 'title must be 1 to 200 characters'],
      [{ title: 'x'.repeat(201) }, 'title must be 1 to 200 characters'],
      [{ title: '   ' }, 'title must not be blank'],
      [{ title: 'two\nlines' }, 'title must not contain control characters (such as line breaks)'],
      [{ description: 'x'.repeat(1001) }, 'description must be 1 to 1000 characters'],
      [{ description: null }, 'description must be a string'],
      [{ content: '---\ntitle: sneaky\n---\nbody' }, 'content must not start with a frontmatter block ("---"): send title and description as fields'],
      [{ source: 'api' }, 'unknown field "source"'],
    ];
    for (const [change, message] of cases) {
      const res = await createPage(p, { path: 'page', title: 'Title', content: 'Body', ...change });
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', message });
    }
    expect((await createPage(p, { path: 'page', title: '🚀'.repeat(200), content: 'Body' })).status).toBe(201);
    expect(existsSync(path.join(p.content, 'page.mdx'))).toBe(true);
  });

  it('answers 409 page_exists for a taken path, a file of the other extension, and a page at the same address', async () => {
    const p = await newProject();
    expect((await createPage(p, { path: 'guides', title: 'Guides', content: 'one' })).status).toBe(201);
    const again = await createPage(p, { path: 'guides', title: 'Again', content: 'two' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'page_exists', message: 'page "guides" already exists (content/guides.mdx)' });
    const sameAddress = await createPage(p, { path: 'guides/index', title: 'Index', content: 'x' });
    expect(sameAddress.status).toBe(409);
    expect(sameAddress.body.message).toBe('page "guides" (content/guides.mdx) is already served at the address of "guides/index"');
    await put(p.root, 'content/notes.md', '# Notes\n');
    const otherExt = await createPage(p, { path: 'notes', title: 'Notes', content: 'x' });
    expect(otherExt.status).toBe(409);
    expect(otherExt.body.message).toBe('page "notes" already exists (content/notes.md)');
    expect(matter(await readFile(path.join(p.content, 'guides.mdx'), 'utf8'), {}).content).toBe('one');
    expect(existsSync(path.join(p.content, 'notes.mdx'))).toBe(false);
  });

  it('reads .md files and resolves titles as the site does: frontmatter, first heading, file name', async () => {
    const p = await newProject();
    await put(p.root, 'content/a/titled.md', '---\ntitle: From frontmatter\ndescription: Desc\n---\n# Heading\n');
    await put(p.root, 'content/a/headed.mdx', '```md\n# Not this\n```\n\n# From heading\n');
    await put(p.root, 'content/a/getting-started_now.md', 'No heading here.\n');
    await put(p.root, 'content/a/index.md', 'Folder home.\n');
    const pages = await listAll(p);
    expect(pages.map((x) => [x.path, x.title, x.description])).toEqual([
      ['a/getting-started_now', 'Getting started now', undefined],
      ['a/headed', 'From heading', undefined],
      ['a/index', 'A', undefined],
      ['a/titled', 'From frontmatter', 'Desc'],
    ]);
    const titled = await api('GET', `${p.pages}/a/titled`);
    expect(titled.body).toMatchObject({ content: '# Heading\n', title: 'From frontmatter', description: 'Desc', url: `${p.url}a/titled/` });
  });

  it('answers 404 for a missing page, and 400 naming path for a path that can never name a page file', async () => {
    const p = await newProject();
    await createPage(p, { path: 'real', title: 'Real', content: 'x' });
    const missing = await api('GET', `${p.pages}/nope/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not_found', message: 'page "nope/nothing" not found' });
    for (const unsafe of ['..%2F..%2Ffolio.json', 'a%2F..%2F..%2Fx', '%2Fetc%2Fpasswd', 'a%00b', 'a%2F%2Fb', '.hidden']) {
      const res = await api('GET', `${p.pages}/${unsafe}`);
      expect(res.status, unsafe).toBe(400);
      expect(res.body.message, unsafe).toMatch(/^path /);
    }
    // URL parsing turns a backslash into "/" before the API sees it: still inside content/.
    expect((await api('GET', `${p.pages}/a%5Cb`)).body.message).toBe('page "a/b" not found');
  });
});

describe('content checks (the build rules, before anything is stored)', () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await newProject();
  });

  const refused = (content: string) => refusedPage(p, content);

  it('an MDX syntax error names line and column', async () => {
    expect(await refused('# Title\n\nSome text\n\n<Callout kind="note">\nunclosed\n')).toMatch(/^content:5:1: MDX syntax error: /);
    expect(await refused('Line one\n\nan {unclosed expression\n')).toMatch(/^content:3:4: MDX syntax error: /);
    expect(await refused('a\n\n<div>\n\n</span>\n')).toMatch(/^content:5:1: MDX syntax error: Unexpected closing tag `<\/span>`/);
  });

  it('imports, exports, expressions and bad ApiMethod values, in the words of the build', async () => {
    expect(await refused('import X from "./x.js"\n\n# Hi\n')).toBe(
      'content:1:1: import and export are not allowed in Folio content unless they are snippets or literal values (it imports code, run at build time and in readers\' browsers): import … from "./x.js"; enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it',
    );
    expect(await refused('# Hi\n\nexport const a = () => 1\n')).toMatch(/^content:3:1: import and export are not allowed/);
    expect(await refused('Text {process.exit(1)} more\n')).toBe(
      'content:1:6: expression {process.exit(1)} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces; anything else is code: enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it',
    );
    expect(await refused('<ApiMethod method="FETCH" />\n')).toBe(
      'content:1:1: ApiMethod method "FETCH" is not one of GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD (case-insensitive)',
    );
    expect(await refused('<script>alert(1)</script>\n\n<ApiMethod method="FETCH" />\n')).toMatch(/^content has 2 problems: content:1:1: .*; content:3:1: ApiMethod method "FETCH"/);
  });

  it('content is checked as the body it becomes after the page\'s frontmatter (a page the API accepts must build)', async () => {
    // Alone, "\n---\n{…}\n---" reads as frontmatter; stored after the title's frontmatter it is MDX.
    expect(await refused('\n---\n{process.env.HOME}\n---\n')).toBe(
      'content:3:1: expression {process.env.HOME} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces; anything else is code: enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it',
    );
  });

  it('a Snippet must exist in the project\'s _snippets/ (a page the API accepts must build)', async () => {
    expect(await refused('<Snippet file="intro.mdx" />\n')).toBe(
      'content:1:1: Snippet file "intro.mdx" not found: no _snippets/intro.mdx in this content root',
    );
    expect(await refused('<Snippet file="../content/x.mdx" />\n')).toBe('content:1:1: Snippet file "../content/x.mdx" is outside _snippets/');
    await put(p.root, '_snippets/intro.mdx', 'Hello {name}!\n');
    const ok = await createPage(p, { path: 'with-snippet', title: 'S', content: '<Snippet file="_snippets/intro.mdx" vars={{ name: "Ada" }} />\n' });
    expect(ok.status).toBe(201);
    const inline = await createPage(p, { path: 'inline', title: 'I', content: '<Snippet>Inline children</Snippet>\n\n{/* a comment */}\n' });
    expect(inline.status).toBe(201);
  });

  it('a snippet import (Mintlify\'s form) must name a snippet of the project, and a value it exports', async () => {
    expect(await refused('import Intro from "/_snippets/missing.mdx"\n\n<Intro />\n')).toBe(
      'content:1:1: import "/_snippets/missing.mdx": no snippet _snippets/missing.mdx in this content root',
    );
    await put(p.root, '_snippets/values.mdx', 'export const plan = "Pro";\n');
    expect(await refused('import { nope } from "/_snippets/values.mdx"\n\n{nope}\n')).toBe(
      'content:1:1: import "/_snippets/values.mdx": _snippets/values.mdx has no export const nope = <literal value>',
    );
    const ok = await createPage(p, { path: 'imports', title: 'M', content: 'import Intro from "/_snippets/intro.mdx"\nimport { plan } from "/_snippets/values.mdx"\n\n<Intro name="Ada" /> on {plan}\n' });
    expect(ok.status).toBe(201);
  });

  it('the content root the API wrote passes the site build\'s whole-root check', async () => {
    const report = await checkContentRoot(p.root);
    expect(report.problems).toEqual([]);
    expect(report.pages).toEqual(['content/imports.mdx', 'content/inline.mdx', 'content/with-snippet.mdx']);
  });
});

describe('what the build reads differently from other parsers (GFM tables and footnotes)', () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await newProject();
    await put(p.root, 'content/plain.md', '# Plain\n\nA Markdown page.\n');
  });

  const refusedMdx = (content: string) => refusedPage(p, content);

  it('an expression in a table cell that another parser reads as inside a code span', async () => {
    expect(await refusedMdx('| a | b |\n|---|---|\n| `x | <b data-leak={process.env.HOME}>t</b> | ` |\n')).toMatch(
      /^content:3:\d+: attribute data-leak=\{process\.env\.HOME\} on <b> is not allowed/,
    );
  });

  it('an expression in a footnote definition, also indented with a tab', async () => {
    expect(await refusedMdx('Note[^1]\n\n[^1]: {process.env.HOME}\n')).toMatch(/^content:3:7: expression \{process\.env\.HOME\} is not allowed/);
    expect(await refusedMdx('Note[^1]\n\n[^1]:\t{process.env.HOME}\n\n\t{process.exit(1)}\n')).toMatch(
      /^content has 2 problems: content:3:7: expression \{process\.env\.HOME\} .*; content:5:2: expression \{process\.exit\(1\)\}/,
    );
  });

  it('a JSX event handler in a footnote of an MDX page', async () => {
    expect(await refusedMdx('Note[^1]\n\n[^1]: <img src="x" onerror="alert(1)"/>\n')).toBe('content:3:7: event handler attribute "onerror" is not allowed');
  });

  it('raw HTML event handlers in a table cell and in a footnote of a .md page', async () => {
    const res = await api('PATCH', `${p.pages}/plain`, { body: { content: '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | c |\n\nSee[^1]\n\n[^1]: <img src=x onerror=alert(2)>\n' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      message: 'content has 2 problems: content:3:3: event handler attribute "onerror" is not allowed; content:7:7: event handler attribute "onerror" is not allowed',
    });
    expect(await readFile(path.join(p.content, 'plain.md'), 'utf8')).toBe('# Plain\n\nA Markdown page.\n');
  });
});

describe('content too complex to check', () => {
  it('a 2 MiB page that makes the parser slow gets 422 content_too_complex naming the page, while /healthz keeps answering', async () => {
    const p = await newProject();
    // Unclosed braces: the parser's time grows with the square of their number.
    const content = '{'.repeat(2 * 1024 * 1024 - 1024);
    let settled = false;
    const write = createPage(p, { path: 'guides/slow', title: 'Slow', content }).finally(() => {
      settled = true;
    });
    for (let i = 0; i < 3; i++) {
      const health = await request(server.url, 'GET', '/healthz');
      expect(health.status).toBe(200);
    }
    expect(settled).toBe(false); // the server answered while it was still checking the page
    const res = await write;
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('content_too_complex');
    expect(res.body.message).toMatch(/^page "guides\/slow": content is too complex to check within \d+(\.\d+)? s: /);
    expect(existsSync(path.join(p.content, 'guides/slow.mdx'))).toBe(false);
    // The check processes recover: the next write is checked as usual.
    expect((await createPage(p, { path: 'guides/fine', title: 'Fine', content: '# Fine\n' })).status).toBe(201);
  });
});

describe('update', () => {
  it('changes only the given fields and keeps other frontmatter keys, comments and the body', async () => {
    const p = await newProject();
    await createPage(p, { path: 'guides/setup', title: 'Setup', description: 'Old', content: 'Body one.\n' });
    // Frontmatter written by hand (as after a disconnect): keys, order and comments are kept.
    const file = path.join(p.content, 'guides/setup.mdx');
    await writeFile(file, '---\ntitle: Setup\n# keep this comment\norder: 2\ndescription: Old\ntags: [a, b]\ndate: 2024-01-01\n---\nBody one.\n');
    const res = await api('PATCH', `${p.pages}/guides/setup`, { body: { title: 'Set up: everything' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: 'guides/setup', title: 'Set up: everything', description: 'Old', content: 'Body one.\n', source: 'api' });
    expect(await readFile(file, 'utf8')).toBe(
      '---\ntitle: "Set up: everything"\n# keep this comment\norder: 2\ndescription: Old\ntags: [ a, b ]\ndate: 2024-01-01\n---\nBody one.\n',
    );
    const content = await api('PATCH', `${p.pages}/guides/setup`, { body: { content: '# New body\n', description: null } });
    expect(content.status).toBe(200);
    expect(content.body.description).toBeUndefined();
    expect(content.body.content).toBe('# New body\n');
    const parsed = matter(await readFile(file, 'utf8'), {});
    expect(parsed.data).toMatchObject({ title: 'Set up: everything', order: 2, tags: ['a', 'b'] });
    expect(parsed.data.description).toBeUndefined();
    expect(parsed.content).toBe('# New body\n');
    expect((await api('GET', `${p.pages}/guides/setup`)).body).toEqual(content.body);
  });

  it('refuses unknown fields, bad values and bad content with 400, changing nothing; 404 for a missing page', async () => {
    const p = await newProject();
    await createPage(p, { path: 'page', title: 'Page', content: 'Body.' });
    const file = path.join(p.content, 'page.mdx');
    const before = await readFile(file, 'utf8');
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ path: 'moved' }, 'unknown field "path"'],
      [{ title: '' }, 'title must be 1 to 200 characters'],
      [{ title: null }, 'title must be a string'],
      [{ content: '<ApiMethod method="NOPE" />' }, /^content:1:1: ApiMethod method "NOPE" is not one of/],
    ];
    for (const [body, message] of cases) {
      const res = await api('PATCH', `${p.pages}/page`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    const missing = await api('PATCH', `${p.pages}/missing`, { body: { title: 'X' } });
    expect(missing.status).toBe(404);
    expect(existsSync(path.join(p.content, 'missing.mdx'))).toBe(false);
  });

  it('20 concurrent PATCHes of one page: every one succeeds and the file is exactly one of them', async () => {
    const p = await newProject();
    await createPage(p, { path: 'busy', title: 'Busy', content: 'start' });
    const bodies = Array.from({ length: 20 }, (_, i) => ({ title: `Title ${i}`, content: `${`Content ${i}. `.repeat(2000)}\n` }));
    const answers = await Promise.all(bodies.map((body) => api('PATCH', `${p.pages}/busy`, { body })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const parsed = matter(await readFile(path.join(p.content, 'busy.mdx'), 'utf8'), {});
    const winner = bodies.findIndex((b) => b.title === parsed.data.title);
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(parsed.content).toBe(bodies[winner]!.content);
    // Title and content of one PATCH only, never mixed; and the last answer saw the final state.
    expect((await api('GET', `${p.pages}/busy`)).body).toMatchObject({ title: `Title ${winner}`, content: bodies[winner]!.content });
  });

  it('concurrent PATCHes of different fields are all kept (no lost update)', async () => {
    const p = await newProject();
    await createPage(p, { path: 'merge', title: 'Start', content: 'start' });
    const answers = await Promise.all([
      api('PATCH', `${p.pages}/merge`, { body: { title: 'New title' } }),
      api('PATCH', `${p.pages}/merge`, { body: { description: 'New description' } }),
      api('PATCH', `${p.pages}/merge`, { body: { content: 'New content' } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await api('GET', `${p.pages}/merge`)).body).toMatchObject({ title: 'New title', description: 'New description', content: 'New content' });
  });
});

describe('delete', () => {
  it('answers 204 with no body, removes the file; then 404', async () => {
    const p = await newProject();
    await createPage(p, { path: 'guides/old', title: 'Old', content: 'x' });
    const res = await api('DELETE', `${p.pages}/guides/old`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(existsSync(path.join(p.content, 'guides/old.mdx'))).toBe(false);
    expect((await api('GET', `${p.pages}/guides/old`)).status).toBe(404);
    expect((await api('DELETE', `${p.pages}/guides/old`)).status).toBe(404);
    expect((await api('GET', p.pages)).body.data).toEqual([]);
  });

  it('deleting the project removes its files', async () => {
    const p = await newProject();
    await createPage(p, { path: 'doomed', title: 'Doomed', content: 'x' });
    expect(existsSync(path.join(server.dataDir, 'projects', p.id))).toBe(true);
    expect((await api('DELETE', `/v1/projects/${p.id}`)).status).toBe(204);
    expect(existsSync(path.join(server.dataDir, 'projects', p.id))).toBe(false);
    expect((await api('GET', p.pages)).status).toBe(404);
  });

  it('deleting a project while its pages are being written leaves no files behind', async () => {
    const p = await newProject();
    const writes = Array.from({ length: 12 }, (_, i) => createPage(p, { path: `race/p${i}`, title: `P${i}`, content: 'word '.repeat(20_000) }));
    // Once one create is answered the others are past their checks, waiting for their turn to write.
    await Promise.race(writes);
    const deleted = await api('DELETE', `/v1/projects/${p.id}`);
    expect(deleted.status).toBe(204);
    expect(existsSync(path.join(server.dataDir, 'projects', p.id))).toBe(false);
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 404)).toBe(true);
    expect(existsSync(path.join(server.dataDir, 'projects', p.id))).toBe(false);
  });
});

describe('list', () => {
  it('pages through every page in path order, without content; limit and cursor are checked', async () => {
    const p = await newProject();
    const paths = ['b', 'a/z', 'a', 'index', 'a-b', 'c/d/e', 'a/b'];
    for (const pagePath of paths) await createPage(p, { path: pagePath, title: pagePath.toUpperCase(), content: `# ${pagePath}` });
    const first = await api('GET', `${p.pages}?limit=3`);
    expect(first.body.data.map((x: Json) => x.path)).toEqual(['a', 'a-b', 'a/b']);
    expect(Object.keys(first.body.data[0])).toEqual(['path', 'title', 'source', 'url', 'updated_at']);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const all = await listAll(p, 3);
    expect(all.map((x) => x.path)).toEqual([...paths].sort());
    expect((await api('GET', p.pages)).body.data).toHaveLength(7);
    // A page created between two requests appears once, in its place.
    await createPage(p, { path: 'a0', title: 'A0', content: 'x' });
    const second = await api('GET', `${p.pages}?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((x: Json) => x.path)).toEqual(['a/z', 'a0', 'b']);
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'cursor=', 'cursor=bm9wZQ', 'cursor=%2E%2E']) {
      const res = await api('GET', `${p.pages}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/^(limit|cursor) /);
    }
  });

  it('lists nothing behind symbolic links, and never reads a file through one', async () => {
    const p = await newProject();
    await put(p.root, 'content/real.mdx', '# Real\n');
    await put(server.dataDir, 'outside/secret.mdx', '---\ntitle: Secret\n---\nsecret body\n');
    await symlink(path.join(server.dataDir, 'outside/secret.mdx'), path.join(p.content, 'link.mdx'));
    await symlink(path.join(server.dataDir, 'outside'), path.join(p.content, 'linked-dir'));
    expect((await listAll(p)).map((x) => x.path)).toEqual(['real']);
    expect((await api('GET', `${p.pages}/link`)).status).toBe(404);
    expect((await api('GET', `${p.pages}/linked-dir/secret`)).status).toBe(404);
    // Writes through a linked folder are refused too.
    const res = await createPage(p, { path: 'linked-dir/new', title: 'New', content: 'x' });
    expect(res.status).toBe(400);
    expect(existsSync(path.join(server.dataDir, 'outside/new.mdx'))).toBe(false);
  });

  it('sees files added, changed and removed on disk by others, and a content root replaced as a sync does', async () => {
    const p = await newProject();
    expect(await listAll(p)).toEqual([]);
    await put(p.root, 'content/one.mdx', '# One\n');
    expect((await listAll(p)).map((x) => x.title)).toEqual(['One']);
    await put(p.root, 'content/sub/two.mdx', '# Two\n');
    expect((await listAll(p)).map((x) => x.title)).toEqual(['One', 'Two']);
    await removeDir(path.join(p.content, 'sub'));
    expect((await listAll(p)).map((x) => x.title)).toEqual(['One']);
    // A folder made by an API write is watched as well as the ones found on disk.
    expect((await createPage(p, { path: 'fresh/new', title: 'New', content: 'x' })).status).toBe(201);
    expect((await listAll(p)).map((x) => x.title)).toEqual(['New', 'One']);
    await put(p.root, 'content/fresh/other.md', '# Other\n');
    expect((await listAll(p)).map((x) => x.title)).toEqual(['New', 'Other', 'One']);
    // A sync swaps the whole root for a new one.
    const next = `${p.root}.next`;
    await put(next, 'content/one.mdx', '# One again\n');
    await rename(p.root, `${p.root}.old`);
    await rename(next, p.root);
    expect((await listAll(p)).map((x) => x.title)).toEqual(['One again']);
  });
});

describe('limits', () => {
  it('a page body may be up to 2 MiB (413 above), not just the 1 MiB of other bodies', async () => {
    const p = await newProject();
    const big = `${'word '.repeat(Math.floor((1.5 * 1024 * 1024) / 5))}\n`;
    const ok = await createPage(p, { path: 'big', title: 'Big', content: big });
    expect(ok.status).toBe(201);
    const tooBig = `${'x'.repeat(2 * 1024 * 1024)}\n`;
    const res = await createPage(p, { path: 'huge', title: 'Huge', content: tooBig });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'payload_too_large', message: 'request body must be at most 2097152 bytes' });
    expect((await api('PATCH', `${p.pages}/big`, { body: { content: tooBig } })).status).toBe(413);
    expect(existsSync(path.join(p.content, 'huge.mdx'))).toBe(false);
    expect((await api('GET', `${p.pages}/big`)).body.content).toBe(big);
  });

  it('a project has at most 10,000 pages (400 naming the limit)', async () => {
    const p = await newProject();
    for (let dir = 0; dir < 100; dir++) {
      await mkdir(path.join(p.content, `d${dir}`), { recursive: true });
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => (dir === 99 && i === 99 ? undefined : writeFile(path.join(p.content, `d${dir}`, `p${i}.md`), `# P${i}\n`))),
      );
    }
    expect((await createPage(p, { path: 'last', title: 'Last', content: 'x' })).status).toBe(201);
    const res = await createPage(p, { path: 'one-more', title: 'One more', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', message: 'a project has at most 10000 pages: delete a page before creating another' });
    expect(existsSync(path.join(p.content, 'one-more.mdx'))).toBe(false);
    expect((await api('DELETE', `${p.pages}/last`)).status).toBe(204);
    expect((await createPage(p, { path: 'one-more', title: 'One more', content: 'x' })).status).toBe(201);
  });
});

describe('projects connected to a repository', () => {
  it('are read-only (409 source_managed) and show the synced content as source "repository"; disconnecting makes them API pages', async () => {
    const p = await newProject();
    expect((await api('PATCH', `/v1/projects/${p.id}`, { body: { source_repo: 'acme/docs' } })).status).toBe(200);
    await put(p.root, 'content/Guides/Setup Guide.md', '---\ntitle: Setup\nsidebar: hidden\n---\nSynced body.\n');
    await put(p.root, 'content/index.mdx', '# Home\n');
    const listed = await listAll(p);
    expect(listed.map((x) => [x.path, x.source])).toEqual([['Guides/Setup Guide', 'repository'], ['index', 'repository']]);
    expect(listed[0].url).toBe(`${p.url}Guides/Setup%20Guide/`);
    const got = await api('GET', `${p.pages}/Guides/Setup%20Guide`);
    expect(got.body).toMatchObject({ path: 'Guides/Setup Guide', title: 'Setup', content: 'Synced body.\n', source: 'repository' });

    const before = await readFile(path.join(p.content, 'index.mdx'), 'utf8');
    const writes = [
      createPage(p, { path: 'new', title: 'New', content: 'x' }),
      api('PATCH', `${p.pages}/index`, { body: { title: 'Changed' } }),
      api('DELETE', `${p.pages}/index`),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'source_managed',
        message: 'pages of a project connected to a repository are read-only; change them in acme/docs (or disconnect it with PATCH source_repo null)',
      });
    }
    expect(await readFile(path.join(p.content, 'index.mdx'), 'utf8')).toBe(before);
    expect(existsSync(path.join(p.content, 'new.mdx'))).toBe(false);

    expect((await api('PATCH', `/v1/projects/${p.id}`, { body: { source_repo: null } })).status).toBe(200);
    expect((await listAll(p)).map((x) => x.source)).toEqual(['api', 'api']);
    const patched = await api('PATCH', `${p.pages}/Guides/Setup%20Guide`, { body: { title: 'Set up' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Set up', content: 'Synced body.\n', source: 'api' });
    expect(await readFile(path.join(p.content, 'Guides/Setup Guide.md'), 'utf8')).toBe('---\ntitle: Set up\nsidebar: hidden\n---\nSynced body.\n');
    expect((await createPage(p, { path: 'new', title: 'New', content: 'x' })).status).toBe(201);
  });
});

describe('authorization', () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await newProject();
    await createPage(p, { path: 'guides/install', title: 'Install', content: 'x' });
  });

  const endpoints = (): Array<[string, string, Record<string, unknown>?]> => [
    ['GET', p.pages],
    ['GET', `${p.pages}/guides/install`],
    ['POST', p.pages, { path: 'new', title: 'New', content: 'x' }],
    ['PATCH', `${p.pages}/guides/install`, { title: 'Changed' }],
    ['DELETE', `${p.pages}/guides/install`],
  ];

  it('every pages endpoint answers 403 naming its scope to a key without it, and changes nothing', async () => {
    const scopesWithout = (scope: string) =>
      ['projects:read', 'projects:write', 'pages:read', 'pages:write', 'deployments:read', 'deployments:trigger'].filter((s) => s !== scope).join(',');
    const keyWithout = async (scope: string) => {
      const res = await admin(server.dataDir, 'key', 'create', '--org', 'default', '--scopes', scopesWithout(scope));
      return client(server.url, res.stdout.trim().split('\n').at(-1)!);
    };
    const noRead = await keyWithout('pages:read');
    const noWrite = await keyWithout('pages:write');
    for (const [method, url, body] of endpoints()) {
      const scope = method === 'GET' ? 'pages:read' : 'pages:write';
      const res = await (method === 'GET' ? noRead : noWrite)(method, url, { body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
      expect(res.body.message).toContain(scope);
    }
    // The key lacking pages:read may still write, and the other may still read.
    expect((await noWrite('GET', `${p.pages}/guides/install`)).status).toBe(200);
    expect((await api('GET', `${p.pages}/guides/install`)).body.title).toBe('Install');
    expect(existsSync(path.join(p.content, 'new.mdx'))).toBe(false);
  });

  it("another organization's project is 404 on every pages endpoint, and nothing changes", async () => {
    for (const [method, url, body] of endpoints()) {
      const res = await other(method, url, { body });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: `project ${p.id} not found` });
    }
    expect((await api('GET', `${p.pages}/guides/install`)).body.title).toBe('Install');
    expect(existsSync(path.join(p.content, 'new.mdx'))).toBe(false);
  });

  it('without a key every pages endpoint is 401; a wrong method is 405 with Allow', async () => {
    for (const [method, url, body] of endpoints()) expect((await client(server.url)(method, url, { body })).status).toBe(401);
    const put = await api('PUT', `${p.pages}/guides/install`, { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });
});

describe('durability', () => {
  it('a page write acknowledged before the server is killed (SIGKILL) is there after a restart', async () => {
    const own = await startServer();
    const ownApi = client(own.url, own.defaultKey);
    const project = await ownApi('POST', '/v1/projects', { body: { name: 'Kill', slug: uniqueSlug('kill') } });
    const pages = `/v1/projects/${project.body.id}/pages`;
    expect((await ownApi('POST', pages, { body: { path: 'kept', title: 'Kept', content: 'Acknowledged.' } })).status).toBe(201);
    expect((await ownApi('PATCH', `${pages}/kept`, { body: { title: 'Kept too' } })).status).toBe(200);
    own.process.kill('SIGKILL');
    await own.exited;
    const again = await startServer({ dataDir: own.dataDir });
    try {
      const res = await client(again.url, own.defaultKey)('GET', `${pages}/kept`);
      expect(res.body).toMatchObject({ title: 'Kept too', content: 'Acknowledged.' });
    } finally {
      await again.stop();
      await removeDir(own.dataDir);
    }
  });
});

describe('the OpenAPI document agrees with the answers', () => {
  // The request helper checks every answer against src/api/openapi.json; these are the page answers
  // the other tests do not all reach: a description removed, a repository file name, the conflicts.
  it('page, page list and error answers are the documented ones', async () => {
    const p = await newProject();
    const created = await createPage(p, { path: 'guides/install', title: 'Install', description: 'D', content: '# Install' });
    expect(created.status).toBe(201);
    await put(p.root, 'content/Odd Name.md', 'x');
    expect((await api('GET', `${p.pages}/Odd%20Name`)).status).toBe(200);
    expect((await api('PATCH', `${p.pages}/guides/install`, { body: { description: null } })).status).toBe(200);
    expect((await api('GET', `${p.pages}?limit=1`)).status).toBe(200);
    expect((await createPage(p, { path: 'guides/install', title: 'Again', content: 'x' })).status).toBe(409);
    expect((await createPage(p, { path: 'x', title: 'X', content: '<ApiMethod method="NOPE" />' })).status).toBe(400);
    const pathPattern = new RegExp(apiDocument().components.schemas.PageCreate.properties.path.pattern, 'u');
    expect(pathPattern.test(created.body.path)).toBe(true);
  });
});

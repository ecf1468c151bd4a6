// What code of a project with code can leave in its build root when Astro exits, beyond links
// (test/service/build-output-attacks.test.ts): a tree nested past the system's path limit, a
// socket deep in the output, hard links to files outside the build root. None may reach the site,
// and none may keep the server from cleaning up after the build.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/builder/build.ts';
import { BUILDS_DIR } from '../../src/builder/build-roots.ts';
import { removalsSettled } from '../../src/lib/remove-later.ts';
import { MAX_OUTPUT_PATH } from '../../src/site/tenant-limits.ts';
import { makeContentRoot } from './helpers.ts';

/** A content root whose page imports code that runs `hook` at the build's exit (`out`: the output directory). */
function hookedRoot(hook: string): string {
  return makeContentRoot({
    'content/index.mdx': `---\ntitle: Hooked\n---\n\nimport Hook from '/snippets/hook.jsx';\n\n<Hook />\n`,
    'snippets/hook.jsx': `const fs = process.getBuiltinModule('node:fs');
const cp = process.getBuiltinModule('node:child_process');
process.on('exit', () => {
  const out = process.env.FOLIO_OUT_DIR;
  ${hook}
});
export default function Hook() { return <p>hooked</p>; }
`,
  });
}

const made: string[] = [];
afterEach(() => {
  // rm walks any depth (a failing old build may have left the deep tree in the output).
  for (const dir of made.splice(0)) execFileSync('rm', ['-rf', '--', dir]);
});

const outDir = () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  made.push(out);
  return out;
};

/** Code that nests `depth` folders in `parent` (far past PATH_MAX), working relative to each. */
const nest = (parent: string, depth: number) => `process.chdir(${parent});
  fs.mkdirSync('deep');
  process.chdir('deep');
  for (let i = 0; i < ${depth}; i++) { fs.mkdirSync('${'d'.repeat(60)}'); process.chdir('${'d'.repeat(60)}'); }
  fs.writeFileSync('bottom.html', '<p>deep</p>');`;

describe('build output made to trouble the server', () => {
  it('refuses a tree nested past the path limit, and still removes it and the build root', async () => {
    const root = hookedRoot(`const buildRoot = process.cwd();
  ${nest('out', 3000)}
  ${nest('buildRoot', 3000)}`);
    made.push(root);
    const out = outDir();
    const result = await buildSite({ contentRoot: root, outDir: out, allowCode: true, timeoutMs: 180_000 });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('build_failed');
    expect(result.error?.message).toMatch(new RegExp(`^the build's output has a path longer than ${MAX_OUTPUT_PATH} characters \\("deep/d{60}/`));
    expect(fs.readdirSync(out)).toEqual([]);
    // Neither tree is left among the builds' directories, once their removal in the background has ended.
    await removalsSettled();
    expect(fs.readdirSync(BUILDS_DIR).filter((name) => fs.existsSync(path.join(BUILDS_DIR, name, 'deep')))).toEqual([]);
  }, 240_000);

  it('refuses a socket deep in the output; hard links to files outside the build root cannot be made', async () => {
    const root = hookedRoot(`const tried = ['/usr/bin/env', '/input/site/content/index.mdx'].map((target, i) => {
    try { fs.linkSync(target, out + '/linked-' + i); return 'linked'; } catch (e) { return e.code; }
  });
  process.stdout.write('hard links: ' + tried.join(' ') + '\\n');
  fs.mkdirSync(out + '/_folio', { recursive: true });
  cp.execFileSync(process.execPath, ['-e', 'require("node:net").createServer().listen(process.argv[1], () => process.exit(0))', out + '/_folio/sock']);`);
    made.push(root);
    const out = outDir();
    const result = await buildSite({ contentRoot: root, outDir: out, allowCode: true, timeoutMs: 180_000 });
    // Another mount than the build root's: the kernel refuses the link.
    expect(result.log).toContain('hard links: EXDEV EXDEV');
    expect(result.ok).toBe(false);
    expect(result.error?.message).toBe(`the build's output holds a socket at "_folio/sock"; a site holds only files and folders: refused`);
    expect(fs.readdirSync(out)).toEqual([]);
  }, 240_000);
});

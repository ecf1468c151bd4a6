// `folio --help`, flags and `folio check`, run as an author runs them: the installed command, by
// name, from a docs repository outside Folio's checkout.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFolio, type InstalledFolio } from '../helpers/folio-cli.ts';
import { makeContentRoot } from '../site/helpers.ts';

let folio: InstalledFolio;
let repo: string;
let clean: string;

beforeAll(() => {
  folio = installFolio();
  repo = makeContentRoot({
    'docs.json': JSON.stringify({ name: 'Checked', navigation: { pages: ['index', 'guide'] }, colour: 'red' }),
    'index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n\n<Snippet file="missing.mdx" />\n',
    'guide.mdx': '---\ntitle: Guide\n---\n\nAn {unclosed expression\n',
  });
  clean = makeContentRoot({ 'docs.json': JSON.stringify({ name: 'Clean', navigation: { pages: ['index'] } }), 'index.mdx': '---\ntitle: Home\n---\n\nAll good.\n' });
});

afterAll(() => {
  folio.remove();
  for (const dir of [repo, clean]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('folio help and flags', () => {
  it('lists the commands, and each command its flags', async () => {
    const top = await folio.run(clean, ['--help']);
    expect(top.code).toBe(0);
    for (const command of ['dev', 'check', 'broken-links', 'deploy']) expect(top.stdout).toContain(command);
    const deploy = await folio.run(clean, ['deploy', '--help']);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toContain('--project <slug|id>');
    expect(deploy.stdout).toContain('--wait');
  });

  it('refuses an unknown flag or command, listing the right ones, and does nothing else', async () => {
    const flag = await folio.run(repo, ['check', '--jsn']);
    expect(flag.code).toBe(2);
    expect(flag.stdout).toBe('');
    expect(flag.stderr).toContain('unknown flag --jsn for folio check: its flags are --json, --allow-code, --help');
    const command = await folio.run(repo, ['publish']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "publish": use one of dev, check, broken-links, deploy');
    const port = await folio.run(repo, ['dev', '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a whole number from 1 to 65535');
  });
});

describe('folio check', () => {
  it('prints every problem of the repository and exits 1', async () => {
    const { code, stdout } = await folio.run(repo, ['check']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^index\.mdx:7:1: Snippet file "missing\.mdx" not found/m);
    expect(stdout).toMatch(/^guide\.mdx:\d+:\d+: /m);
    expect(stdout).toContain('2 pages, 2 errors');
  });

  it('--json gives machine-readable results for CI', async () => {
    const { code, stdout } = await folio.run(repo, ['check', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { pages: number; errors: number; results: { file: string; line: number; column: number; severity: string; code: string; message: string }[] };
    expect(report.pages).toBe(2);
    expect(report.errors).toBe(2);
    const snippet = report.results.find((r) => r.file === 'index.mdx');
    expect(snippet).toMatchObject({ line: 7, column: 1, severity: 'error', code: 'content_error' });
    expect(snippet?.message).toContain('missing.mdx');
    expect(report.results.find((r) => r.file === 'guide.mdx')?.severity).toBe('error');
    expect(report.results.some((r) => r.severity === 'warning' && r.file === 'docs.json')).toBe(true);
  });

  it('exits 0 on a repository without errors', async () => {
    const { code, stdout } = await folio.run(clean, ['check', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ pages: 1, errors: 0, results: [] });
  });
});

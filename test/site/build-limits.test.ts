// `npm run build:site` and `npm run check:site` read the build settings as the server does
// (src/builder/build-limits.ts): a bad value stops them before any work, naming the variable, as
// `npm start` does; nothing is built or checked.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeContentRoot } from './helpers.ts';
import { repoRoot } from '../../src/site/settings.ts';

const run = (script: string, args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [path.join(repoRoot, script), ...args], { cwd: repoRoot, env: { ...process.env, ...env } }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );

describe('the build settings of build:site and check:site', () => {
  const root = makeContentRoot({ 'docs.json': '{"name": "Limits"}', 'content/index.md': '---\ntitle: Home\n---\n\nHello.\n' });

  it('build:site refuses a bad FOLIO_BUILD_MEMORY_MB or FOLIO_BUILD_TIMEOUT_S with exit code 2, building nothing', async () => {
    const out = path.join(root, '..', `${path.basename(root)}-out`);
    expect(await run('scripts/build-site.ts', [root, out, '--sandbox=off'], { FOLIO_BUILD_MEMORY_MB: '100' })).toEqual({
      code: 2,
      stderr: 'Invalid FOLIO_BUILD_MEMORY_MB="100": must be at least 256\n',
    });
    expect(await run('scripts/build-site.ts', [root, out, '--sandbox=off'], { FOLIO_BUILD_TIMEOUT_S: 'soon' })).toEqual({
      code: 2,
      stderr: 'Invalid FOLIO_BUILD_TIMEOUT_S="soon": must be a whole number\n',
    });
    expect(fs.existsSync(out)).toBe(false);
  });

  it('check:site refuses a bad FOLIO_CHECK_TIMEOUT_MS with exit code 2 instead of checking with another limit', async () => {
    expect(await run('scripts/check-site.ts', [root], { FOLIO_CHECK_TIMEOUT_MS: '1.5s' })).toEqual({
      code: 2,
      stderr: 'Invalid FOLIO_CHECK_TIMEOUT_MS="1.5s": must be a whole number\n',
    });
  });
});

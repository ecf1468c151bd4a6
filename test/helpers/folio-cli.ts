// The `folio` command as an author has it: installed with `npm install -g <checkout>` into a
// temporary npm prefix (a link to this checkout, as `npm link` makes), and run by name through
// PATH from a docs repository outside the checkout, with the machine's own node first on PATH
// (bin/folio must still run on Folio's pinned Node).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './server.ts';

export interface FolioRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface InstalledFolio {
  /** PATH with the installed `folio` first, then the system's folders (its node 20). */
  path: string;
  /** Runs `folio …args` in `cwd` to its end. */
  run(cwd: string, args: string[], env?: Record<string, string>): Promise<FolioRun>;
  /** Starts `folio …args` in `cwd` (its own process group, for `stop`). */
  start(cwd: string, args: string[], env?: Record<string, string>): ChildProcess;
  remove(): void;
}

export function installFolio(): InstalledFolio {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-prefix-'));
  execFileSync('npm', ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--offline', ROOT], { stdio: 'ignore' });
  const PATH = `${path.join(prefix, 'bin')}:/usr/local/bin:/usr/bin:/bin`;
  const start = (cwd: string, args: string[], env: Record<string, string> = {}) =>
    spawn('folio', args, { cwd, env: { PATH, HOME: os.tmpdir(), ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    path: PATH,
    start,
    run(cwd, args, env) {
      const child = start(cwd, args, env);
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      });
    },
    remove: () => fs.rmSync(prefix, { recursive: true, force: true }),
  };
}

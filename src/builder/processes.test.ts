// A build process that cannot start fails its build; it never ends the server (review of issue 28).
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildLimits, startProcess } from './processes.ts';

describe('startProcess', () => {
  it('a program that cannot be started: the step fails with a line saying why, and the server goes on', async () => {
    const limits = buildLimits({ timeoutMs: 10_000 });
    const lines: string[] = [];
    const child = startProcess({ file: '/nonexistent/folio-build-step', args: [], env: {}, cwd: os.tmpdir() }, limits, (line) => lines.push(line));
    child.go('[]\n');
    const code = await child.done;
    limits.dispose();
    expect(code).not.toBe(0);
    expect(lines).toContain('[folio] error: a process of the build could not start (ENOENT)');
  });

  it('a process that runs: its lines reach the log and its exit code is the outcome', async () => {
    const limits = buildLimits({ timeoutMs: 10_000 });
    const lines: string[] = [];
    const child = startProcess({ file: process.execPath, args: ['-e', 'process.stdin.once("data", (d) => { console.log(`got ${d}`.trim()); process.exit(3); })'], env: {}, cwd: os.tmpdir() }, limits, (line) => lines.push(line));
    child.go('changes\n');
    expect(await child.done).toBe(3);
    limits.dispose();
    expect(lines).toEqual(['got changes']);
  });
});

// The build sandbox (src/builder/sandbox.ts) with real bubblewrap: small Node scripts run in it the way
// a build does, and try what hostile content would: the network, the server's /proc and
// environment, the data dir and other projects, writing outside their output, a fork bomb, a huge
// allocation, a huge file. Each attempt fails inside while the test process (the "server") carries on.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SANDBOX,
  folioMounts,
  giveToSandbox,
  sandboxAvailable,
  sandboxLaunch,
  sandboxUid,
  type Mount,
  type SandboxLimits,
} from '../../src/builder/sandbox.ts';
import { buildSite, type AstroRunner } from '../../src/builder/build.ts';
import { CHECKED_FILE } from '../../src/site/content-check/checked-files.ts';
import { LAST_UPDATED_FILE, repoRoot } from '../../src/site/settings.ts';
import { WarmWorker } from '../../src/builder/warm-worker.ts';
import { makeContentRoot } from './helpers.ts';

const CANARY = 'canary-5a7d-must-not-cross';
let work: string;
let dataDir: string;
let output: string;
let content: string;

beforeAll(async () => {
  process.env.FOLIO_SANDBOX_TEST_CANARY = CANARY;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-sandbox-'));
  // A data dir with a store and two projects; the sandbox is given only one project's content.
  dataDir = path.join(work, 'data');
  fs.mkdirSync(path.join(dataDir, 'projects/other/root'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'store.json'), '{"keys":"secret"}');
  fs.writeFileSync(path.join(dataDir, 'projects/other/root/page.md'), 'other org');
  content = path.join(dataDir, 'projects/mine/root');
  fs.mkdirSync(content, { recursive: true });
  fs.writeFileSync(path.join(content, 'page.md'), 'my page');
  output = path.join(work, 'build');
  fs.mkdirSync(output);
  expect((await sandboxAvailable()).ok).toBe(true);
});
afterAll(() => {
  delete process.env.FOLIO_SANDBOX_TEST_CANARY;
  fs.rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `script` with the sandbox's Node: its output dir writable, the content read-only at /content. */
async function sandboxed(script: string, options: { limits?: Partial<SandboxLimits>; mounts?: Mount[] } = {}): Promise<Run> {
  const uid = sandboxUid();
  await giveToSandbox(output, uid);
  const mounts = options.mounts ?? [...folioMounts(), { from: output, writable: true }, { from: content, at: '/content' }];
  const launch = sandboxLaunch(
    { command: [process.execPath, '-e', script], mounts, env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ONLY_THIS: 'given' }, cwd: output, uid },
    { ...DEFAULT_SANDBOX, limits: { ...DEFAULT_SANDBOX.limits, ...options.limits } },
  );
  return new Promise((resolve) => {
    const child = spawn(launch.file, launch.args, { env: launch.env, cwd: launch.cwd, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A script that tries `attempt` (an async function body) and prints "ok" or the error's code. */
const attempt = (body: string) => `(async () => { ${body} })().then(() => console.log('ok'), (e) => console.log('refused', e.code ?? e.message))`;

describe('the build sandbox', () => {
  it('runs the build\'s Node with exactly the environment it is given', async () => {
    const run = await sandboxed('console.log(JSON.stringify(process.env))');
    expect(run.code).toBe(0);
    // bwrap's --chdir sets PWD; nothing else of the parent's environment crosses.
    expect(JSON.parse(run.stdout)).toEqual({ PATH: '/usr/bin:/bin', HOME: '/tmp', ONLY_THIS: 'given', PWD: output });
    expect(run.stdout + run.stderr).not.toContain(CANARY);
  });

  it('has no network: a TCP server of the host on 127.0.0.1 cannot be reached', async () => {
    const server = net.createServer((socket) => socket.end('hello from the host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const connect = attempt(`await new Promise((ok, fail) => require('node:net').connect(${port}, '127.0.0.1', ok).on('error', fail))`);
    try {
      // The same script outside the sandbox connects: the refusal inside is the sandbox's doing.
      expect((await promisify(execFile)(process.execPath, ['-e', connect], { encoding: 'utf8' })).stdout.trim()).toBe('ok');
      const run = await sandboxed(connect);
      expect(run.stdout.trim()).toBe('refused ECONNREFUSED');
      const interfaces = await sandboxed('console.log(Object.keys(require("node:os").networkInterfaces()).join(","))');
      expect(interfaces.stdout.trim()).toBe('lo');
    } finally {
      server.close();
    }
  });

  it('cannot see the host\'s processes: no /proc/<test pid>, no signal to it, only its own pids', async () => {
    const run = await sandboxed(`
      const fs = require('node:fs');
      let environ = 'read';
      try { fs.readFileSync('/proc/${process.pid}/environ'); } catch (e) { environ = e.code; }
      let signal = 'sent';
      try { process.kill(${process.pid}, 0); } catch (e) { signal = e.code; }
      const pids = fs.readdirSync('/proc').filter((d) => /^\\d+$/.test(d)).map(Number);
      console.log(JSON.stringify({ environ, signal, pids, self: process.pid, env1: (() => { try { return fs.readFileSync('/proc/1/environ', 'utf8'); } catch (e) { return e.code; } })() }));
    `);
    const seen = JSON.parse(run.stdout);
    // The test's pid may exist in the sandbox's own numbering only by chance; its environ never.
    expect(seen.environ === 'ENOENT' || seen.environ === 'EACCES').toBe(true);
    expect(seen.signal === 'ESRCH' || seen.signal === 'EPERM').toBe(true);
    expect(Math.max(...seen.pids)).toBeLessThan(10); // bwrap's init, setpriv's node: a handful
    expect(seen.self).toBeLessThan(10);
    expect(seen.env1).toBe('EACCES'); // pid 1 is bwrap's init, run by root: not readable either
    expect(run.stdout).not.toContain(CANARY);
  });

  it('cannot read the data dir, another project, /etc/shadow or the Folio checkout beyond its code', async () => {
    const run = await sandboxed(`
      const fs = require('node:fs');
      const tryRead = (p) => { try { return fs.readFileSync(p, 'utf8'); } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        store: tryRead(${JSON.stringify(path.join(dataDir, 'store.json'))}),
        other: tryRead(${JSON.stringify(path.join(dataDir, 'projects/other/root/page.md'))}),
        shadow: tryRead('/etc/shadow'),
        git: tryRead(${JSON.stringify(path.join(repoRoot, '.git/HEAD'))}),
        mine: tryRead('/content/page.md'),
      }));
    `);
    expect(JSON.parse(run.stdout)).toEqual({ store: 'ENOENT', other: 'ENOENT', shadow: 'ENOENT', git: 'ENOENT', mine: 'my page' });
  });

  it('writes only into its output dir and its private /tmp', async () => {
    const run = await sandboxed(`
      const fs = require('node:fs');
      const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); return 'written'; } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        output: tryWrite(${JSON.stringify(path.join(output, 'page.html'))}),
        tmp: tryWrite('/tmp/scratch'),
        content: tryWrite('/content/page.md'),
        install: tryWrite(${JSON.stringify(path.join(repoRoot, 'src/builder/build.ts'))}),
        modules: tryWrite(${JSON.stringify(path.join(repoRoot, 'node_modules/astro/package.json'))}),
        root: tryWrite('/evil'),
      }));
    `);
    expect(JSON.parse(run.stdout)).toEqual({ output: 'written', tmp: 'written', content: 'EROFS', install: 'EROFS', modules: 'EROFS', root: 'EACCES' });
    expect(fs.readFileSync(path.join(content, 'page.md'), 'utf8')).toBe('my page');
    expect(fs.existsSync('/evil')).toBe(false);
  });

  it('stops a fork bomb at the process limit; the host can still start processes', async () => {
    const run = await sandboxed(`
      const { spawn } = require('node:child_process');
      let started = 0;
      const next = () => {
        const child = spawn('/bin/sleep', ['30']);
        child.on('spawn', () => { started++; next(); });
        child.on('error', (e) => { console.log(JSON.stringify({ started, error: e.code })); process.exit(0); });
      };
      next();
    `);
    const { started, error } = JSON.parse(run.stdout);
    expect(error).toBe('EAGAIN');
    expect(started).toBeGreaterThan(10);
    expect(started).toBeLessThan(DEFAULT_SANDBOX.limits.processes);
    // Its sleeping children died with the sandbox; the host is unaffected.
    expect(execFileSync('/bin/echo', ['still fine'], { encoding: 'utf8' })).toBe('still fine\n');
  });

  it('refuses an 8 GB allocation at the memory limit; the host is unaffected', async () => {
    const run = await sandboxed(`
      const parts = [];
      try {
        for (let i = 0; i < 8; i++) parts.push(Buffer.alloc(2 ** 30));
        console.log('allocated', parts.length);
      } catch (e) {
        console.log('refused after', parts.length, 'GiB:', e.message);
      }
    `);
    expect(run.stdout).toMatch(/^refused after [0-4] GiB: Array buffer allocation failed/);
    expect(Buffer.alloc(2 ** 20).length).toBe(2 ** 20);
  });

  it('limits the size of a file it writes', async () => {
    const big = path.join(output, 'big.bin');
    const run = await sandboxed(
      attempt(`const fs = require('node:fs'); const fd = fs.openSync(${JSON.stringify(big)}, 'w'); for (let i = 0; i < 16; i++) fs.writeSync(fd, Buffer.alloc(2 ** 20));`),
      { limits: { fileSizeMb: 4 } },
    );
    // Node ignores SIGXFSZ, so the write past the limit fails with EFBIG.
    expect(run.stdout.trim()).toBe('refused EFBIG');
    expect(fs.statSync(big).size).toBe(4 * 2 ** 20);
  });
});

describe('the sandbox\'s /tmp', () => {
  it('is a tmpfs of limited size (it is memory)', async () => {
    const run = await sandboxed(attempt(`require('node:fs').writeFileSync('/tmp/fill', Buffer.alloc(2 * 2 ** 20));`), { limits: { tmpMb: 1 } });
    expect(run.stdout.trim()).toBe('refused ENOSPC');
  });
});

describe('site builds in the sandbox', () => {
  const site = { 'content/index.mdx': '# Home\n\nSANDBOXED-PAGE\n', 'content/guide.md': '# Guide\n\nText.\n' };

  async function buildWith(options: Partial<Parameters<typeof buildSite>[0]>) {
    const root = makeContentRoot(site);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
    try {
      const result = await buildSite({ contentRoot: root, outDir: out, timeoutMs: 180_000, ...options });
      const index = result.ok ? fs.readFileSync(path.join(out, 'index.html'), 'utf8') : '';
      return { result, index, pagefind: fs.existsSync(path.join(out, 'pagefind')) };
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  }

  it('a cold build (Astro and Pagefind) succeeds with the sandbox required', async () => {
    const { result, index, pagefind } = await buildWith({ sandbox: { mode: 'required' } });
    expect(result.ok, result.log.join('\n')).toBe(true);
    expect(result.log).toContain('checking content (the build runs in the sandbox)');
    expect(index).toContain('SANDBOXED-PAGE');
    expect(pagefind).toBe(true);
  });

  it('a warm worker runs under bwrap and builds in the sandbox, twice', async () => {
    const worker = new WarmWorker({ sandbox: { mode: 'required' } });
    try {
      const first = await buildWith({ sandbox: { mode: 'required' }, astro: worker });
      expect(first.result.ok, first.result.log.join('\n')).toBe(true);
      const pid = worker.pid!;
      expect(path.basename(fs.readlinkSync(`/proc/${pid}/exe`))).toBe('bwrap');
      const second = await buildWith({ sandbox: { mode: 'required' }, astro: worker });
      expect(second.result.ok, second.result.log.join('\n')).toBe(true);
      expect(second.index).toContain('SANDBOXED-PAGE');
      expect(worker.pid).toBe(pid);
    } finally {
      await worker.close();
    }
  });

  it('content that may run code never goes to a warm worker', async () => {
    const worker = new WarmWorker({ sandbox: { mode: 'required' } });
    try {
      const { result } = await buildWith({ sandbox: { mode: 'off' }, allowCode: true, astro: worker });
      expect(result.ok, result.log.join('\n')).toBe(true);
      expect(result.log).toContain('checking content (the build runs in the sandbox)'); // off is overruled
      expect(worker.pid).toBeUndefined(); // a fresh process of its own built it
    } finally {
      await worker.close();
    }
  });

  it('the server writes no file of a build root through a link a warm worker\'s process put there first', async () => {
    // The build root is the worker uid's from the start (warm-worker.ts): a process the worker left
    // running may put links at the names of the files the server writes into it before Astro runs.
    const victims = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-victims-'));
    const worker = new WarmWorker({ sandbox: { mode: 'required' } });
    const planting: AstroRunner = {
      async start(job, limits, emit) {
        const started = await worker.start(job, limits, emit);
        for (const name of [CHECKED_FILE, LAST_UPDATED_FILE]) {
          fs.writeFileSync(path.join(victims, name), 'the server\'s\n');
          fs.symlinkSync(path.join(victims, name), path.join(started.buildRoot, name));
        }
        return started;
      },
    };
    try {
      const pageHistory = { lastUpdated: { 'content/index.mdx': '2025-03-05T12:30:00+00:00' } };
      await buildWith({ sandbox: { mode: 'required' }, astro: planting, pageHistory }).catch(() => undefined);
      for (const name of [CHECKED_FILE, LAST_UPDATED_FILE]) expect(fs.readFileSync(path.join(victims, name), 'utf8'), name).toBe('the server\'s\n');
    } finally {
      await worker.close();
      fs.rmSync(victims, { recursive: true, force: true });
    }
  });

  it('without bubblewrap: required and allowCode fail with sandbox_unavailable, auto builds without it', async () => {
    const missing = '/nonexistent/bwrap';
    expect((await sandboxAvailable({ bwrapPath: missing })).ok).toBe(false);
    for (const options of [{ sandbox: { mode: 'required' as const, bwrapPath: missing } }, { sandbox: { mode: 'off' as const, bwrapPath: missing }, allowCode: true }]) {
      const { result } = await buildWith(options);
      expect(result.error?.code).toBe('sandbox_unavailable');
      expect(result.error?.message).not.toContain(missing);
    }
    const auto = await buildWith({ sandbox: { mode: 'auto', bwrapPath: missing } });
    expect(auto.result.ok, auto.result.log.join('\n')).toBe(true);
    expect(auto.result.log).toContain('checking content (the build runs without a sandbox)');
  });
});

// A warm build worker: one long-lived `build-worker.ts --warm` process that has loaded Astro once
// and runs builds one at a time (Astro is not safe to run twice at once in one process). A fresh
// `astro build` spends ~2 s starting; a warm one starts at once. Each build's whole environment
// goes over stdin, the worker itself starts with a scrubbed one, and it is replaced after
// `maxBuilds` builds (the heap grows a little per build), when its memory is over MAX_IDLE_RSS
// after a build (a big site leaves a big heap behind), or when a build is stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { DONE_MARKER } from './build-worker.ts';
import { lineReader, WORKER, type AstroRunner, type BuildLimits, type Child, type StopReason } from './build.ts';
import { projectDir } from './settings.ts';

/** Memory a worker may keep between builds (a warm worker idles at about 550 MB: Astro, Vite, Rolldown). */
const MAX_IDLE_RSS = 900 * 1024 * 1024;

interface Process {
  child: ChildProcess;
  builds: number;
  rss: number;
  /** Where the lines of the build in progress go, and how it ends. */
  current?: { emit(line: string): void; markers: number; ok: boolean; finish(outcome: number | StopReason): void };
  exited: Promise<void>;
}

export class WarmWorker implements AstroRunner {
  private maxBuilds: number;
  private process: Process | undefined;
  private busy = false;
  private closed = false;

  constructor(maxBuilds = 20) {
    this.maxBuilds = maxBuilds;
  }

  /** The worker process's id while it runs (diagnostics: which process ran a build). */
  get pid(): number | undefined {
    return this.process?.child.pid;
  }

  /** Starts the process now, so the first build finds Astro loaded. */
  warm(): void {
    if (!this.closed) this.process ??= this.spawn();
  }

  start(_buildRoot: string, env: NodeJS.ProcessEnv, limits: BuildLimits, emit: (line: string) => void): Child {
    if (this.busy) throw new Error('a warm worker runs one build at a time');
    this.busy = true;
    let resolve!: (outcome: number | StopReason) => void;
    const done = new Promise<number | StopReason>((r) => (resolve = r));
    let started: Process | undefined;
    let settled = false;
    const finish = (outcome: number | StopReason) => {
      if (settled) return;
      settled = true;
      limits.signal.removeEventListener('abort', onAbort);
      if (started) {
        started.current = undefined;
        started.builds += 1;
        const reusable = (outcome === 0 || outcome === 1) && started.builds < this.maxBuilds && started.rss <= MAX_IDLE_RSS;
        if (!reusable) this.retire(started);
      }
      this.busy = false;
      resolve(outcome);
      if (!this.process) this.warm(); // the next build finds a warm process again
    };
    const onAbort = () => finish(limits.signal.reason === 'timeout' ? 'timeout' : 'canceled');
    limits.signal.addEventListener('abort', onAbort, { once: true });
    if (limits.signal.aborted) onAbort();
    return {
      go: () => {
        if (settled) return;
        this.warm();
        if (!this.process) return finish('canceled');
        started = this.process;
        started.current = { emit, markers: 0, ok: false, finish };
        started.child.stdin!.write(`${JSON.stringify({ env })}\n`);
      },
      cancel: () => finish('canceled'),
      done,
    };
  }

  /** Stops the process (a build in progress ends as canceled). */
  async close(): Promise<void> {
    this.closed = true;
    const proc = this.process;
    if (!proc) return;
    proc.current?.finish('canceled');
    this.retire(proc);
    await proc.exited;
  }

  private spawn(): Process {
    const tmp = os.tmpdir();
    const child = spawn(process.execPath, [WORKER, '--warm'], {
      cwd: projectDir,
      // Nothing of the service's environment: each build brings its own FOLIO_* inputs.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1', FOLIO_ROLE: 'site' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // own process group: stopping it stops Astro's helpers too
    });
    const proc: Process = { child, builds: 0, rss: 0, exited: new Promise((r) => child.on('close', () => r())) };
    child.stdin!.on('error', () => undefined);
    const onLine = (line: string) => {
      const current = proc.current;
      if (!current) return;
      if (line.startsWith(DONE_MARKER)) {
        const status = line.slice(DONE_MARKER.length).trim();
        if (status) {
          const { ok, rss } = JSON.parse(status) as { ok: boolean; rss: number };
          current.ok = ok;
          proc.rss = rss;
        }
        // Both streams carry the marker: once both have, every line of this build has arrived.
        if (++current.markers === 2) current.finish(current.ok ? 0 : 1);
        return;
      }
      current.emit(line);
    };
    lineReader(child.stdout!, onLine);
    lineReader(child.stderr!, onLine);
    void proc.exited.then(() => {
      if (this.process === proc) this.process = undefined;
      proc.current?.finish(1); // died mid-build
    });
    return proc;
  }

  private retire(proc: Process): void {
    if (this.process === proc) this.process = undefined;
    try {
      if (proc.child.pid) process.kill(-proc.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

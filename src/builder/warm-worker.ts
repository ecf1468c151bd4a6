// A warm build worker: one long-lived `build-worker.ts --warm` process that has loaded Astro once
// and runs builds one at a time (Astro is not safe to run twice at once in one process). A fresh
// `astro build` spends ~2 s starting; a warm one starts at once. Each build's settings (src/site/settings.ts)
// go over stdin, the worker itself starts with a scrubbed one, and it is replaced after
// `maxBuilds` builds (the heap grows a little per build), when its memory is over MAX_IDLE_RSS
// after a build (a big site leaves a big heap behind), or when a build is stopped.
//
// In the sandbox (sandbox.ts) the process gets its mounts once, when it starts, so it sees two
// host directories of its own: a work dir (writable: each build's Astro root and output, created
// by the parent for that build) and an input dir (read-only, at SANDBOX_INPUT_DIR) into which the
// parent copies the content of the build in progress and from which it removes it afterwards, so
// the worker only ever sees the current build's content. Builds of content that may run code never
// come here (buildSite gives them a fresh process), so a warm worker only runs checked content.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DONE_MARKER } from './build-worker.ts';
import { type AstroRunner, type BuildJob, type StartedBuild, WORKER } from './astro-step.ts';
import { lineReader } from './build-log.ts';
import { BUILDS_DIR, buildOutDir, liveBuildDirs, makeBuildRoot, removeBuildDir, sandboxInput } from './build-roots.ts';
import { type BuildLimits, type StopReason } from './processes.ts';
import { chooseSandbox, folioMounts, giveToSandbox, SANDBOX_CONTENT_ROOT, SANDBOX_INPUT_DIR, SANDBOX_PATH, sandboxLaunch, sandboxUid, type BuildSandbox, type SandboxOptions } from './sandbox.ts';
import { LAST_UPDATED_FILE, repoRoot, type SiteSettings } from '../site/settings.ts';
import { removeLater } from '../lib/remove-later.ts';

/** Memory a worker may keep between builds (a warm worker idles at about 550 MB: Astro, Vite, Rolldown). */
const MAX_IDLE_RSS = 900 * 1024 * 1024;

interface Process {
  child: ChildProcess;
  builds: number;
  rss: number;
  /** The sandbox it runs in (JSON of its options; "null" for none): a build needing another gets a new process. */
  sandboxKey: string;
  /** Its uid in the sandbox. */
  uid: number;
  /** Host dir of the builds' roots (writable in the sandbox, at the same path). */
  workDir: string;
  /** Host dir mounted read-only at SANDBOX_INPUT_DIR: holds the current build's content only. */
  inputDir: string;
  /** Where the lines of the build in progress go, and how it ends. */
  current?: { emit(line: string): void; markers: number; ok: boolean; finish(outcome: number | StopReason): void };
  exited: Promise<void>;
  /**
   * Builds whose root is in its work dir and not yet cleaned up. A process retired right after its
   * Astro step (over MAX_IDLE_RSS, or its last build) exits while buildSite still indexes and moves
   * that build's output: its dirs go only once those builds are cleaned up.
   */
  inUse: Set<Promise<void>>;
  /** Resolves once it has exited and its work and input dirs are removed. */
  gone?: Promise<void>;
}

const keyOf = (sandbox: SandboxOptions | undefined) => JSON.stringify(sandbox ?? null);

export class WarmWorker implements AstroRunner {
  private maxBuilds: number;
  private sandbox: BuildSandbox | undefined;
  private process: Process | undefined;
  private busy = false;
  private closed = false;

  /** `sandbox`: what a warm-up starts in (each build then brings its own, normally the same). */
  constructor(options: { maxBuilds?: number; sandbox?: BuildSandbox } = {}) {
    this.maxBuilds = options.maxBuilds ?? 20;
    this.sandbox = options.sandbox;
  }

  /** The worker process's id while it runs (diagnostics: which process ran a build). */
  get pid(): number | undefined {
    return this.process?.child.pid;
  }

  /** Starts the process now, so the first build finds Astro loaded. */
  warm(): void {
    if (this.closed || this.process) return;
    void chooseSandbox(this.sandbox, false).then((sandbox) => {
      if (!(sandbox instanceof Error) && !this.closed && !this.process) this.process = this.spawn(sandbox);
    });
  }

  async start(job: BuildJob, limits: BuildLimits, emit: (line: string) => void): Promise<StartedBuild> {
    if (this.busy) throw new Error('a warm worker runs one build at a time');
    this.busy = true;
    if (this.process && this.process.sandboxKey !== keyOf(job.sandbox)) this.retire(this.process);
    if (this.closed) this.busy = false;
    const proc = this.closed ? undefined : (this.process ??= this.spawn(job.sandbox));
    const workDir = proc?.workDir ?? BUILDS_DIR;
    const buildRoot = await makeBuildRoot(workDir);
    let released!: () => void;
    const inUse = new Promise<void>((r) => (released = r));
    proc?.inUse.add(inUse);
    const uid = proc?.uid ?? 0;
    if (job.sandbox) await giveToSandbox(buildRoot, uid);
    const contentRoot = job.sandbox ? SANDBOX_CONTENT_ROOT : job.contentRoot;
    const input = job.sandbox && proc ? sandboxInput(proc.inputDir) : job.contentRoot;
    const settings: SiteSettings = {
      contentRoot,
      buildRoot,
      outDir: buildOutDir(buildRoot),
      siteUrl: job.siteUrl,
      allowCode: false,
      editUrl: job.pageHistory?.editUrl,
      lastUpdatedFile: job.pageHistory?.lastUpdated ? path.join(buildRoot, LAST_UPDATED_FILE) : undefined,
      onlyPages: job.onlyPages,
    };
    const cleanup = async () => {
      try {
        // Moved out of the work dir and the input dir (which the worker's sandbox still sees) and
        // removed in the background: the input's path is free for the next build at once.
        await removeLater(buildRoot, BUILDS_DIR);
        if (input !== job.contentRoot) await removeLater(input, BUILDS_DIR);
      } finally {
        proc?.inUse.delete(inUse);
        released();
      }
    };

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
    if (!proc) finish('canceled');
    return {
      go: () => {
        if (settled) return;
        // A process that died since start cannot see this build's directories: the build fails.
        if (this.process !== proc || !proc) {
          emit('[folio] error: the build worker stopped before the build began; deploy again');
          return finish(1);
        }
        started = proc;
        started.current = { emit, markers: 0, ok: false, finish };
        started.child.stdin!.write(`${JSON.stringify({ settings })}\n`);
      },
      cancel: () => finish('canceled'),
      done,
      buildRoot,
      contentRoot,
      input,
      uid,
      cleanup,
    };
  }

  /** Stops the process (a build in progress ends as canceled). */
  async close(): Promise<void> {
    this.closed = true;
    const proc = this.process;
    if (!proc) return;
    proc.current?.finish('canceled');
    this.retire(proc);
    await proc.gone;
  }

  private spawn(sandbox: SandboxOptions | undefined): Process {
    const workDir = path.join(BUILDS_DIR, `warm-${randomUUID()}`);
    const inputDir = `${workDir}.input`;
    fs.mkdirSync(workDir, { recursive: true });
    fs.mkdirSync(inputDir);
    liveBuildDirs.add(workDir).add(inputDir);
    const uid = sandboxUid();
    const tmp = sandbox ? '/tmp' : os.tmpdir();
    // Nothing of the service's environment: each build brings its own FOLIO_* inputs.
    const env = { PATH: sandbox ? SANDBOX_PATH : (process.env.PATH ?? '/usr/bin:/bin'), HOME: tmp, TMPDIR: tmp, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1', FOLIO_ROLE: 'site' };
    // In the sandbox it sees the builds' roots (each made writable for it when the build starts)
    // and the input dir, which holds only the content of the build in progress.
    const mounts = [...folioMounts(), { from: workDir, writable: true }, { from: inputDir, at: SANDBOX_INPUT_DIR }];
    // --expose-gc: the worker collects its garbage while idle (build-worker.ts, IDLE_COLLECTION_MS).
    const command = [process.execPath, '--expose-gc', WORKER, '--warm'];
    const launch = sandbox ? sandboxLaunch({ command, mounts, env, cwd: repoRoot, uid }, sandbox) : { file: command[0]!, args: command.slice(1), env, cwd: repoRoot };
    const child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // own process group: stopping it stops Astro's helpers too
    });
    const proc: Process = { child, builds: 0, rss: 0, sandboxKey: keyOf(sandbox), uid, workDir, inputDir, inUse: new Set(), exited: new Promise((r) => child.on('close', () => r())) };
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
    proc.gone = proc.exited.then(async () => {
      if (this.process === proc) this.process = undefined;
      proc.current?.finish(1); // died mid-build
      // A build still indexing or moving its output in the work dir keeps it until its cleanup.
      await Promise.all(proc.inUse);
      liveBuildDirs.delete(workDir);
      liveBuildDirs.delete(inputDir);
      await removeBuildDir(workDir);
      await removeBuildDir(inputDir);
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

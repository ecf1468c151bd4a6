// The processes of a build (the Astro worker, the search indexing): their whole environment (nothing of the
// server's secrets), how they are launched (in the sandbox or as plain children), one time limit
// and one cancel signal for all of them, and how they are stopped, helpers included.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { folioMounts, SANDBOX_PATH, sandboxLaunch, type Launch, type Mount, type SandboxOptions } from './sandbox.ts';
import { LAST_UPDATED_FILE, type PageHistory } from '../site/settings.ts';
import { lineReader } from './build-log.ts';

/** The child's whole environment: the build inputs and nothing of the parent's secrets. */
export function workerEnv(buildRoot: string, contentRoot: string, outDir: string, siteUrl?: string, sandboxed = false, allowCode = false, pageHistory?: PageHistory): Record<string, string> {
  const env: Record<string, string> = {
    PATH: sandboxed ? SANDBOX_PATH : (process.env.PATH ?? '/usr/bin:/bin'),
    HOME: path.join(buildRoot, 'tmp'),
    TMPDIR: path.join(buildRoot, 'tmp'),
    NODE_ENV: 'production',
    ASTRO_TELEMETRY_DISABLED: '1',
    FOLIO_ROLE: 'site',
    FOLIO_CONTENT_ROOT: contentRoot,
    FOLIO_OUT_DIR: outDir,
    FOLIO_BUILD_ROOT: buildRoot,
  };
  if (siteUrl) env.FOLIO_SITE_URL = siteUrl;
  if (allowCode) env.FOLIO_BUILD_ALLOW_CODE = '1'; // read by src/site/settings.ts: the checks inside the build allow code
  if (pageHistory?.editUrl) env.FOLIO_EDIT_URL = pageHistory.editUrl;
  if (pageHistory?.lastUpdated) env.FOLIO_LAST_UPDATED = path.join(buildRoot, LAST_UPDATED_FILE);
  return env;
}

export type StopReason = 'timeout' | 'canceled';

/** One time limit and one cancel signal for all the processes of a build. */
export interface BuildLimits {
  timeoutMs: number;
  signal: AbortSignal;
  dispose(): void;
}

/** The limits of one build: `timeoutMs` (default 600 s) from now, and a cancel when `signal` aborts. */
export function buildLimits(options: { timeoutMs?: number; signal?: AbortSignal }): BuildLimits {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('timeout' satisfies StopReason), timeoutMs);
  const onAbort = () => controller.abort('canceled' satisfies StopReason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  return {
    timeoutMs,
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

export interface Child {
  /** Lets a waiting worker start the build: `message` on its stdin, which is then closed. */
  go(message?: string): void;
  /** Stops the process (and its helpers). */
  cancel(): void;
  /** The exit code, or why it was stopped. */
  done: Promise<number | StopReason>;
}

/** Starts one process of a build (the Astro worker, or the search indexing: with `startNow` when it needs no go). */
export function startProcess(launch: Launch, limits: BuildLimits, emit: (line: string) => void, startNow = false): Child {
  const child = spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    stdio: [startNow ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    // Own process group, so stopping it stops Astro's and Pagefind's helpers too (in the sandbox,
    // bwrap's --die-with-parent then ends everything in it).
    detached: true,
  });
  let stopped: StopReason | undefined;
  const stop = (why: StopReason) => {
    stopped ??= why;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const onAbort = () => stop(limits.signal.reason === 'timeout' ? 'timeout' : 'canceled');
  limits.signal.addEventListener('abort', onAbort, { once: true });
  if (limits.signal.aborted) onAbort();
  child.stdin?.on('error', () => undefined); // the worker may be gone already
  // A process that could not start (no such program, no memory or process left): 'close' follows
  // with a failing code; without a listener the error would end the server.
  child.on('error', (error: NodeJS.ErrnoException) => emit(`[folio] error: a process of the build could not start (${error.code ?? error.message})`));
  for (const stream of [child.stdout, child.stderr]) if (stream) lineReader(stream, emit);
  const done = new Promise<number | StopReason>((resolve) => {
    child.on('close', (code) => {
      limits.signal.removeEventListener('abort', onAbort);
      resolve(stopped ?? code ?? 1);
    });
  });
  return {
    go: (message = 'go\n') => child.stdin?.end(message),
    cancel: () => stop('canceled'),
    done,
  };
}

/** How to start one step of a build (`command`: program first): in the sandbox with the install, `mounts` and `uid`, or as a plain child. */
export function buildLaunch(command: string[], buildRoot: string, env: Record<string, string>, sandbox: SandboxOptions | undefined, mounts: Mount[], uid: number): Launch {
  if (!sandbox) return { file: command[0]!, args: command.slice(1), env, cwd: buildRoot };
  return sandboxLaunch({ command, mounts: [...folioMounts(), ...mounts], env, cwd: buildRoot, uid }, sandbox);
}

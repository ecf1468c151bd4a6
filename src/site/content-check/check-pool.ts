// Content checks off the caller's event loop: a small pool of check processes (about one per core,
// started when first needed, never keeping the caller alive when idle), a time limit per page and a
// size cap. A page that would take the parser longer than the limit (some inputs are quadratic)
// gets ContentTooComplexError within the limit; the process checking it is killed and replaced, and
// every other request of the server keeps its latency. Used by page writes and by the check of a
// whole content root before a build. The site file (docs.json or mint.json) is checked here too,
// with the same limit, wherever the server reads or writes it (docs/decisions.md, "docs.json in the
// check processes").
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkTimeLimitMs } from './check-time-limit.ts';
import type { CheckOptions, ContentAnalysis } from './check-content.ts';
import type { CheckedSiteFile, CheckJob, CheckRequest, CheckResult, SiteFileCheck } from './check-process.ts';
import { DocsConfigError, refuseTooLarge } from '../config/config-values.ts';
import type { SiteConfigFile } from '../config/site-config-file.ts';

/** The largest page or snippet checked (and so built), in bytes. */
export const MAX_CONTENT_BYTES = 4 * 1024 * 1024;
/** How long a new check process may take to start (loading the parser), not counted against a page. */
const START_LIMIT_MS = 30_000;
/** However busy the machine, a check ends after this many times its limit in wall-clock time. */
const WALL_FACTOR = 10;
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** CPU time (user + system) a process has used, in ms; undefined where /proc cannot tell. */
function cpuTimeMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

/** Nice value of the check processes (19 is the lowest priority). */
const CHECK_PRIORITY = 10;
const CHECK_PROCESS = fileURLToPath(new URL('./check-process.ts', import.meta.url));

/** A page or snippet that the checker could not finish within its time limit. */
export class ContentTooComplexError extends Error {
  override name = 'ContentTooComplexError';
  file: string;
  /** What is wrong, to follow "is" (`too complex to check within 1.5 s: …`). */
  reason: string;
  constructor(file: string, reason: string) {
    super(`${file} is ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}

interface Job {
  request: CheckJob;
  resolve(result: CheckResult): void;
  reject(error: Error): void;
}

/** The file a check is about, as its messages name it. */
const fileOf = (request: CheckJob) => (request.kind === 'site-file' ? request.file : request.options.file);

/** How to make a file the checker could not finish simpler, to follow "too complex to check…: ". */
const simplerFile = (request: CheckJob) =>
  request.kind === 'site-file' ? 'shorten it, or fix its invalid values' : 'split it into smaller pages, or simplify deeply nested or repeated markup';

interface Checker {
  child: ChildProcess;
  ready: boolean;
  job?: { id: number; job: Job; timer: NodeJS.Timeout };
  startTimer?: NodeJS.Timeout;
}

class CheckPool {
  private size = Math.max(1, Math.min(os.availableParallelism(), 8));
  private checkers = new Set<Checker>();
  private queue: Job[] = [];
  private nextId = 1;

  run(request: CheckJob): Promise<CheckResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const checkers = [...this.checkers];
    for (const checker of checkers) this.retire(checker, new Error('content checks stopped'));
    for (const job of this.queue.splice(0)) job.reject(new Error('content checks stopped'));
    await Promise.all(checkers.map((c) => (c.child.exitCode !== null || c.child.signalCode !== null ? undefined : new Promise((r) => c.child.once('exit', r)))));
  }

  private dispatch(): void {
    for (const checker of this.checkers) {
      if (!this.queue.length) return;
      if (checker.ready && !checker.job) this.assign(checker, this.queue.shift()!);
    }
    // Start as many processes as the waiting checks need, up to the pool's size.
    let starting = [...this.checkers].filter((c) => !c.ready).length;
    while (this.queue.length > starting && this.checkers.size < this.size) {
      this.start();
      starting++;
    }
  }

  private start(): void {
    const child = fork(CHECK_PROCESS, [], {
      // Nothing of the caller's environment: the checker only parses text it is sent.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      execArgv: ['--max-old-space-size=1024'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    // Below the server's priority: a page that keeps its checker busy for the whole time limit must
    // not take CPU time from requests (on a small machine the checkers can fill every core).
    try {
      if (child.pid) os.setPriority(child.pid, CHECK_PRIORITY);
    } catch {
      // not permitted here: checks then compete at the same priority
    }
    const checker: Checker = { child, ready: false };
    this.checkers.add(checker);
    // A timer, not the process, keeps the caller alive while a check is pending.
    child.unref();
    child.channel?.unref();
    checker.startTimer = setTimeout(() => this.retire(checker, new Error('a content check process did not start')), START_LIMIT_MS);
    child.on('message', (message: { ready?: boolean; id?: number; result?: CheckResult; error?: string }) => {
      if (message.ready) {
        clearTimeout(checker.startTimer);
        checker.ready = true;
        this.dispatch();
        return;
      }
      const current = checker.job;
      if (!current || current.id !== message.id) return;
      clearTimeout(current.timer);
      checker.job = undefined;
      if (message.result) current.job.resolve(message.result);
      else current.job.reject(new Error(`content check failed: ${message.error}`));
      this.dispatch();
    });
    child.on('exit', () => this.retire(checker, undefined));
    child.on('error', () => this.retire(checker, undefined));
  }

  private assign(checker: Checker, job: Job): void {
    const id = this.nextId++;
    // FOLIO_CHECK_TIMEOUT_MS, validated by the entry point (loadConfig, build:site, check:site) at start.
    const limit = checkTimeLimitMs();
    const started = Date.now();
    const cpuAtStart = cpuTimeMs(checker.child.pid);
    // The limit is the checker's CPU time where the system tells it (a busy machine, or the lower
    // priority, may keep a checker waiting), and at most WALL_FACTOR times the limit in any case.
    const expire = () => {
      const cpu = cpuAtStart === undefined ? undefined : cpuTimeMs(checker.child.pid);
      const used = cpu === undefined || cpuAtStart === undefined ? Date.now() - started : cpu - cpuAtStart;
      if (used < limit && Date.now() - started < limit * WALL_FACTOR) {
        current.timer = setTimeout(expire, Math.max(limit - used, 50));
        return;
      }
      this.retire(checker, new ContentTooComplexError(fileOf(job.request), `too complex to check within ${(limit / 1000).toFixed(1)} s: ${simplerFile(job.request)}`));
    };
    const current = { id, job, timer: setTimeout(expire, limit) };
    checker.job = current;
    checker.child.send({ id, ...job.request } satisfies CheckRequest);
  }

  /** Kills a checker; its job (if any) fails with `error`, or as a crash when none is given. */
  private retire(checker: Checker, error: Error | undefined): void {
    if (!this.checkers.delete(checker)) return;
    clearTimeout(checker.startTimer);
    try {
      checker.child.kill('SIGKILL');
    } catch {
      // already gone
    }
    const current = checker.job;
    checker.job = undefined;
    if (current) {
      clearTimeout(current.timer);
      // A checker that dies on a file (out of memory on a huge tree) could not check it either.
      const simpler = current.job.request.kind === 'site-file' ? 'shorten it' : 'split it into smaller pages';
      current.job.reject(error ?? new ContentTooComplexError(fileOf(current.job.request), `too complex to check: the checker ran out of memory on it; ${simpler}`));
    } else if (!checker.ready) {
      // It never started (a broken install): fail what waits rather than start processes forever.
      for (const job of this.queue.splice(0)) job.reject(error ?? new Error('a content check process exited before it started'));
    }
    if (this.queue.length) this.dispatch();
  }
}

/** Why a file of `bytes` bytes is refused, to follow "is". */
export function tooLarge(bytes: number): string {
  return `too large to check (${(bytes / 1024 / 1024).toFixed(1)} MiB): a page or snippet may be at most ${MAX_CONTENT_BYTES / 1024 / 1024} MiB`;
}

let pool: CheckPool | undefined;

/**
 * `analyzeContent` in a check process, within the time limit: rejects with ContentTooComplexError
 * when the page takes longer (or is larger than MAX_CONTENT_BYTES).
 */
export async function analyzeIsolated(text: string, options: CheckOptions): Promise<ContentAnalysis> {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_CONTENT_BYTES) {
    throw new ContentTooComplexError(options.file, tooLarge(bytes));
  }
  pool ??= new CheckPool();
  return (await pool.run({ kind: 'page', text, options })) as ContentAnalysis;
}

/**
 * `parseSiteConfigText` (src/site/config/docs-config.ts) in a check process, within the time limit: the same
 * configuration and warnings (without `locate`), or the same DocsConfigError; ContentTooComplexError
 * (naming the file) when it takes longer. The server reads and validates a repository's docs.json
 * and the files it references only here, never on its event loop.
 */
export async function parseSiteFileIsolated(file: SiteConfigFile, text: string, root?: string): Promise<CheckedSiteFile> {
  // A file over the size limit is refused at once, as the parse would refuse it: never sent.
  refuseTooLarge(text, file);
  pool ??= new CheckPool();
  const result = (await pool.run({ kind: 'site-file', file, text, root })) as SiteFileCheck;
  if ('issues' in result) throw new DocsConfigError(result.issues);
  return result.parsed;
}

/** Stops the check processes (a server shutting down); the next check starts new ones. */
export async function closeContentChecks(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}

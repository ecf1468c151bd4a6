// Git, hardened for repositories Folio did not write (docs/architecture.md "Untrusted content"): execFile
// (never a shell), only the allowed protocols, no hooks, no submodules, no prompts, no system or
// user config, a scrubbed environment, a time limit and a cap on what a fetch may download.
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface GitOptions {
  /** Protocols git may use (FOLIO_GIT_PROTOCOLS). */
  protocols: string[];
  /** Kills git after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra environment (GIT_INDEX_FILE …); never the service's own. */
  env?: Record<string, string>;
}

export class GitError extends Error {
  override name = 'GitError';
}

/** Settings on every git command: a repository's config or content can never run a program. */
function hardening(protocols: string[]): string[] {
  return [
    '-c', 'core.hooksPath=/dev/null',
    '-c', 'core.fsmonitor=false',
    '-c', 'core.symlinks=false',
    '-c', 'core.autocrlf=false',
    '-c', 'submodule.recurse=false',
    '-c', 'fetch.recurseSubmodules=false',
    '-c', 'credential.helper=',
    '-c', 'core.askPass=',
    '-c', `protocol.file.allow=${protocols.includes('file') ? 'always' : 'never'}`,
  ];
}

/** The whole environment git gets: nothing of the service's (keys, tokens) reaches it. */
function gitEnv(protocols: string[], extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    LANG: 'C',
    GIT_ALLOW_PROTOCOL: protocols.join(':'),
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    ...extra,
  };
}

/** Runs `git <args>` in `cwd`; resolves with stdout, rejects with a GitError carrying git's message. */
export function git(cwd: string, args: string[], options: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...hardening(options.protocols), ...args],
      {
        cwd,
        env: gitEnv(options.protocols, options.env),
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        signal: options.signal,
        maxBuffer: 256 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const e = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
        if (e.name === 'AbortError') return reject(new GitError('canceled'));
        if (e.killed || e.signal === 'SIGKILL') return reject(new GitError(`git ${args[0]} took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`));
        const message = stderr.trim().split('\n').filter((l) => !l.startsWith('hint:')).join('\n') || e.message;
        reject(new GitError(message));
      },
    );
  });
}

/** Bytes of pack files (finished and in progress) under a repository's objects/pack. */
async function packBytes(repo: string): Promise<number> {
  const dir = path.join(repo, 'objects', 'pack');
  let total = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    total += (await stat(path.join(dir, name)).catch(() => undefined))?.size ?? 0;
  }
  return total;
}

/** Like `git`, but stops it once the repository's packs grow beyond `maxBytes` (a fetch size cap). */
export async function gitCapped(repo: string, args: string[], options: GitOptions, maxBytes: number): Promise<string> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let tooBig = false;
  const watch = setInterval(async () => {
    if ((await packBytes(repo)) > maxBytes) {
      tooBig = true;
      controller.abort();
    }
  }, 250);
  try {
    return await git(repo, args, { ...options, signal: controller.signal });
  } catch (error) {
    if (tooBig) throw new GitError(`the repository is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, Folio's limit`);
    throw error;
  } finally {
    clearInterval(watch);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

// The build sandbox: every process a site build starts (Astro, the warm worker, Pagefind) runs
// under bubblewrap (https://github.com/containers/bubblewrap), because tenant content is hostile
// and a gap in the content check must not reach the server. Inside the sandbox a build has:
//
// - no network and its own PID, IPC, UTS and cgroup namespaces (it sees only its own processes in
//   /proc, never the server's environment);
// - an empty environment except the variables given (`--clearenv`);
// - read-only: the system's /usr, /lib, /lib64 and /bin, and of the Folio install only
//   node_modules, src, package.json and tsconfig.json (not the data dir, .git or anything else);
// - read-only: the content, mounted at a fixed path (SANDBOX_CONTENT_ROOT) so no host path of the
//   data dir reaches the build's messages; writable: only the mounts marked writable (its build
//   root) and a private /tmp;
// - when Folio runs as root: an unprivileged uid of its own (a random one per sandbox, so one
//   build's processes never count against another's limit), no capabilities, no new privileges;
// - limits: RLIMIT_NPROC (processes and threads of that uid), RLIMIT_DATA (each process's heap and
//   private writable memory; unlike RLIMIT_AS it ignores V8's and WebAssembly's large address
//   space reservations, so Astro still runs), RLIMIT_FSIZE (largest file), no core dumps, a size for
//   the /tmp tmpfs; the build step's own time limit kills the sandbox (bwrap's --die-with-parent
//   takes every process in it).
//
// A process that must run as another user is started as root by bwrap (which then needs only the
// capabilities to change uid) and enters `setpriv` before anything of the build runs. When Folio
// does not run as root, bwrap makes a user namespace instead and the build keeps the service's uid;
// the process limit then counts the service's own processes too, so it is left to the system's.
import { execFile, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkFile } from '../lib/link-tree.ts';
import { repoRoot } from '../site/settings.ts';

export type SandboxMode = 'auto' | 'required' | 'off';
export const SANDBOX_MODES = ['auto', 'required', 'off'] as const satisfies readonly SandboxMode[];

/** Where the content root appears inside the sandbox (the same for every build). */
export const SANDBOX_CONTENT_ROOT = '/input/site';
/** The read-only area that holds it. */
export const SANDBOX_INPUT_DIR = path.dirname(SANDBOX_CONTENT_ROOT);

export interface SandboxLimits {
  /** Per process: RLIMIT_DATA, in MiB. */
  memoryMb: number;
  /** Processes and threads of the sandbox's uid (RLIMIT_NPROC); applied when Folio runs as root. */
  processes: number;
  /** Largest file a process may write (RLIMIT_FSIZE), in MiB. */
  fileSizeMb: number;
  /** Size of the private /tmp (a tmpfs, so memory), in MiB; builds write their temp files in their build root. */
  tmpMb: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryMb: 4096,
  // Node, Vite's and Rolldown's thread pools and Pagefind's scale with the cores.
  processes: Math.max(256, 8 * os.availableParallelism()),
  fileSizeMb: 1024,
  tmpMb: 256,
};

/** How a build is sandboxed: the mode, and any of the sandbox's settings (the others are its defaults). */
export interface BuildSandbox extends Partial<SandboxOptions> {
  mode: SandboxMode;
}

export interface SandboxOptions {
  /** The bubblewrap binary (a name looked up on PATH, or a path). */
  bwrapPath: string;
  limits: SandboxLimits;
}

export const DEFAULT_SANDBOX: SandboxOptions = { bwrapPath: 'bwrap', limits: DEFAULT_SANDBOX_LIMITS };

/** A host directory shown inside the sandbox, at the same path unless `at` says otherwise. */
export interface Mount {
  from: string;
  at?: string;
  writable?: boolean;
}

export interface SandboxedCommand {
  /** The program (an absolute path inside the sandbox) and its arguments. */
  command: string[];
  mounts: Mount[];
  /** The whole environment of the command. */
  env: Record<string, string>;
  /** Working directory inside the sandbox. */
  cwd: string;
  /** The uid (and gid) the command runs as when Folio runs as root; see sandboxUid(). */
  uid?: number;
}

/** How to start one process: a program, its arguments, the environment and cwd of that program. */
export interface Launch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** PATH of the helper programs outside the sandbox (prlimit, bwrap), and inside it. */
const HOST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const SANDBOX_PATH = '/usr/bin:/bin';

const runsAsRoot = () => process.getuid?.() === 0;

/** A fresh unprivileged uid for one sandbox (unnamed on purpose: nothing else on the host has it). */
export function sandboxUid(): number {
  return randomInt(200_000, 300_000);
}

/** The system directories a build needs to run programs (read-only). */
const SYSTEM_DIRS = ['/usr', '/lib', '/lib64', '/bin'].filter((d) => fs.existsSync(d));

/** The parts of the Folio install a build reads: its code and dependencies, and the Node binary. */
export function folioMounts(): Mount[] {
  const node = path.dirname(fs.realpathSync(process.execPath));
  const mounts: Mount[] = ['node_modules', 'src', 'package.json', 'tsconfig.json'].map((f) => ({ from: path.join(repoRoot, f) }));
  const covered = [...SYSTEM_DIRS, ...mounts.map((m) => m.from)].some((d) => node === d || node.startsWith(`${d}/`));
  if (!covered) mounts.push({ from: node });
  return mounts;
}

/** The argv (program first) that runs `cmd` in the sandbox with `options`' limits. */
export function sandboxArgv(cmd: SandboxedCommand, options: SandboxOptions): string[] {
  const { limits } = options;
  const mib = (n: number) => String(Math.floor(n * 1024 * 1024));
  const rlimits = [`--data=${mib(limits.memoryMb)}`, `--fsize=${mib(limits.fileSizeMb)}`, '--core=0'];
  const root = runsAsRoot();
  if (root) rlimits.push(`--nproc=${limits.processes}`);
  const args = ['prlimit', ...rlimits, '--', options.bwrapPath];
  for (const dir of SYSTEM_DIRS) args.push('--ro-bind', dir, dir);
  // A private /tmp for everyone (sticky, like the host's), before the mounts that may lie below it.
  args.push('--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--size', mib(limits.tmpMb), '--tmpfs', '/tmp');
  // bwrap creates missing mount points 0700, which an unprivileged uid could not walk through.
  const made = new Set<string>(['/', '/dev', '/proc', '/tmp', ...SYSTEM_DIRS]);
  const parents = (target: string) => {
    const dirs: string[] = [];
    for (let dir = path.dirname(target); !made.has(dir); dir = path.dirname(dir)) dirs.unshift(dir);
    for (const dir of dirs) {
      made.add(dir);
      args.push('--perms', '0755', '--dir', dir);
    }
  };
  // Parents first, so a mount inside another (a writable build root under the install) lands on top.
  const ordered = [...cmd.mounts].sort((a, b) => (a.at ?? a.from).length - (b.at ?? b.from).length);
  for (const mount of ordered) {
    const at = mount.at ?? mount.from;
    parents(at);
    made.add(at);
    args.push(mount.writable ? '--bind' : '--ro-bind', mount.from, at);
  }
  if (root) {
    // No user namespace: bwrap keeps only what setpriv needs to drop to the build's uid.
    args.push('--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try');
    args.push('--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
  } else {
    args.push('--unshare-all');
  }
  args.push('--die-with-parent', '--new-session', '--clearenv');
  for (const [name, value] of Object.entries(cmd.env)) args.push('--setenv', name, value);
  args.push('--chdir', cmd.cwd, '--');
  if (root) {
    const id = String(cmd.uid ?? sandboxUid());
    args.push('/usr/bin/setpriv', `--reuid=${id}`, `--regid=${id}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--');
  }
  args.push(...cmd.command);
  return args;
}

/** The launch of `cmd` in the sandbox: prlimit and bwrap start with nothing of the server's environment. */
export function sandboxLaunch(cmd: SandboxedCommand, options: SandboxOptions): Launch {
  const [file, ...args] = sandboxArgv(cmd, options);
  return { file: file!, args, env: { PATH: HOST_PATH }, cwd: '/' };
}

/**
 * Makes `dir` (and everything in it) writable by the sandbox's uid, when it has one of its own.
 * Only for a directory the server made and no sandbox wrote: Node's recursive readdir enters a link
 * to a directory (a tenant's tree is given by build-cache.ts's giveCacheToSandbox instead).
 */
export async function giveToSandbox(dir: string, uid: number): Promise<void> {
  if (!runsAsRoot()) return;
  const entries = await fs.promises.readdir(dir, { recursive: true });
  await Promise.all([dir, ...entries.map((e) => path.join(dir, e))].map((p) => fs.promises.lchown(p, uid, uid)));
}

/**
 * Makes a directory the sandbox wrote the server's own again, when the sandbox has a uid of its own:
 * owned by root and not writable by others, so a process of the sandbox still running (a warm
 * worker's) can no longer add, remove or rename entries in it, even through a descriptor it holds.
 * Only for a directory whose parents are the server's already (a link in its path would be followed).
 */
export function takeFromSandbox(dir: string): void {
  if (!runsAsRoot()) return;
  fs.lchownSync(dir, 0, 0);
  fs.chmodSync(dir, 0o755);
}

/**
 * Names never copied into the sandbox: not content, and possibly large or private; and TypeScript
 * configs, which would change how the build resolves modules (Folio's config is its own).
 */
const NOT_CONTENT = new Set(['.git', 'node_modules', 'tsconfig.json', 'jsconfig.json']);

/**
 * Copies a content root into `to` for a sandboxed build, so its uid can read every file whatever
 * the original's modes. A file it can read as it is (world-readable, or when Folio does not run as
 * root its own and owner-readable: the snapshot's files normally are) is hard-linked, and never
 * chmod-ed or chown-ed, since the link shares the file with the snapshot and the content root; the
 * mount is read-only, so the build cannot change it (and as root, the file is not even its uid's).
 * Any other file is copied and given to the sandbox's uid. Only directories and regular files are
 * taken, never symlinks or special files, nor NOT_CONTENT or the directories in `skip` (a build's
 * own output, its build roots).
 */
export async function copyIntoSandbox(from: string, to: string, uid: number, skip: string[]): Promise<void> {
  const root = runsAsRoot();
  const own = root ? (p: string) => fs.promises.lchown(p, uid, uid) : async () => undefined;
  const readable = (stat: fs.Stats) => (root || stat.uid !== process.getuid?.() ? (stat.mode & 0o004) !== 0 : (stat.mode & 0o400) !== 0);
  const copyDir = async (src: string, dest: string): Promise<void> => {
    await fs.promises.mkdir(dest, { mode: 0o755 });
    await own(dest);
    const entries = await fs.promises.readdir(src, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const s = path.join(src, entry.name);
        const d = path.join(dest, entry.name);
        if (NOT_CONTENT.has(entry.name) || skip.includes(s)) return;
        if (entry.isDirectory()) return copyDir(s, d);
        if (!entry.isFile()) return;
        const stat = await fs.promises.lstat(s);
        if (stat.isFile() && readable(stat)) return linkFile(s, d);
        await fs.promises.copyFile(s, d);
        await fs.promises.chmod(d, 0o644);
        await own(d);
      }),
    );
  };
  await copyDir(from, to);
}

/**
 * Moves a content root that only this build reads (a deployment's snapshot) into `to` whole, by
 * one rename, when the sandbox may have it as it is: what copyIntoSandbox would give, without a
 * pass over its files. That holds when it has only directories and regular files, no NOT_CONTENT
 * name and none of `skip`, and the sandbox's uid can read every file and enter every directory
 * (copyIntoSandbox's rule for files; its folders are 0755 of their own). Its folders are not given
 * to the uid: reading needs no ownership, and the mount is read-only anyway. Returns undefined when
 * moved, else why not (the first entry that is not as it must be, relative to `from`; or that `to`
 * is on another filesystem); nothing is moved then.
 *
 * The facts are asked of `find` in one child process (60 ms at 25,000 files where a walk of lstat
 * calls on this event loop took 0.4–0.6 s): it never follows a link (-P), never opens a file (it
 * only stats entries), and stops at the first entry that fails.
 */
export async function moveIntoSandbox(from: string, to: string, skip: string[]): Promise<string | undefined> {
  const inside = skip.find((dir) => {
    const rel = path.relative(from, dir);
    return !rel || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
  if (inside) return 'a build folder is inside it';
  const notContent = [...NOT_CONTENT].flatMap((name, i) => [...(i ? ['-o'] : []), '-name', name]);
  // Read and enter: 0004 and 0005 for another uid; 0400 and 0500 for the service's own files when
  // Folio does not run as root (the sandbox then keeps the service's uid), as copyIntoSandbox's rule.
  const uid = String(process.getuid?.() ?? 0);
  const unreadable = runsAsRoot()
    ? ['-type', 'f', '!', '-perm', '-0004', '-o', '-type', 'd', '!', '-perm', '-0005']
    : ['-type', 'f', '-user', uid, '!', '-perm', '-0400', '-o', '-type', 'f', '!', '-user', uid, '!', '-perm', '-0004',
       '-o', '-type', 'd', '-user', uid, '!', '-perm', '-0500', '-o', '-type', 'd', '!', '-user', uid, '!', '-perm', '-0005'];
  const args = ['-P', from, '(', ...notContent, '-o', '!', '-type', 'd', '!', '-type', 'f', '-o', ...unreadable, ')', '-print0', '-quit'];
  const found = await new Promise<string | undefined>((resolve) => {
    execFile('find', args, { encoding: 'buffer', maxBuffer: 64 * 1024 }, (error, stdout) => {
      if (error) return resolve(''); // unsure: copied
      resolve(stdout.length ? stdout.subarray(0, stdout.indexOf(0)).toString() : undefined);
    });
  });
  if (found !== undefined) return found ? `${JSON.stringify(path.relative(from, found) || '.')} cannot be taken as it is` : 'its files could not be listed';
  return fs.promises.rename(from, to).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => (error.code === 'EXDEV' ? 'the build folder is on another filesystem' : `it could not be moved (${error.code})`),
  );
}

const probes = new Map<string, Promise<SandboxProbe>>();

export interface SandboxProbe {
  ok: boolean;
  /** Why not, for the operator (never shown to tenants: it names host paths). */
  reason?: string;
}

/**
 * Whether builds can run in the sandbox here: runs Node in it once per bwrap path (with the same
 * mounts, uid change and limits a build gets) and remembers the answer.
 */
export function sandboxAvailable(options: Pick<SandboxOptions, 'bwrapPath'> = DEFAULT_SANDBOX): Promise<SandboxProbe> {
  let probe = probes.get(options.bwrapPath);
  if (!probe) {
    probe = runProbe({ ...DEFAULT_SANDBOX, bwrapPath: options.bwrapPath });
    probes.set(options.bwrapPath, probe);
  }
  return probe;
}

function runProbe(options: SandboxOptions): Promise<SandboxProbe> {
  const launch = sandboxLaunch(
    { command: [process.execPath, '-e', 'process.stdout.write("sandbox ok")'], mounts: folioMounts(), env: { PATH: SANDBOX_PATH }, cwd: '/' },
    options,
  );
  return new Promise((resolve) => {
    const child = spawn(launch.file, launch.args, { env: launch.env, cwd: launch.cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', (e) => resolve({ ok: false, reason: `${options.bwrapPath} could not be started: ${e.message}` }));
    child.on('close', (code) => {
      if (code === 0 && output === 'sandbox ok') resolve({ ok: true });
      else resolve({ ok: false, reason: `${options.bwrapPath} failed (exit ${code}): ${output.trim().slice(0, 500) || 'no output'}` });
    });
  });
}

/** Tells tenants the sandbox is missing without naming anything of the server. */
export const SANDBOX_UNAVAILABLE_MESSAGE = 'builds must run in the build sandbox, which is not available on this server; its operator must install bubblewrap';

/** The sandbox a build uses, undefined for none, or an error when it must have one and cannot. */
export async function chooseSandbox(settings: BuildSandbox | undefined, allowCode: boolean): Promise<SandboxOptions | undefined | Error> {
  const mode = settings?.mode ?? 'auto';
  const sandbox: SandboxOptions = {
    bwrapPath: settings?.bwrapPath ?? DEFAULT_SANDBOX.bwrapPath,
    limits: { ...DEFAULT_SANDBOX.limits, ...settings?.limits },
  };
  if (mode === 'off' && !allowCode) return undefined;
  if ((await sandboxAvailable(sandbox)).ok) return sandbox;
  return mode === 'auto' && !allowCode ? undefined : new Error(SANDBOX_UNAVAILABLE_MESSAGE);
}
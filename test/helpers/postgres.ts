// A throwaway PostgreSQL cluster for the tests: Debian's `postgresql` package (.ci/run installs it),
// initialised in a temp dir and started on a free port. PostgreSQL refuses to run as root, so as
// root the cluster belongs to the `postgres` user the package creates. Each test file gets its own
// database (`createTestDatabase`), so files running in parallel never see each other's rows.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** The newest installed PostgreSQL's bin folder (Debian keeps each major version apart). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'postgres')));
  if (!found) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (the tests start their own cluster)');
  return found;
}

export interface TestPostgres {
  /** A superuser's URL of the cluster's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

/** Starts a new cluster; `stop` ends it and removes its files. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-pg-'));
  const asRoot = process.getuid?.() === 0;
  // As root, every command runs as `postgres`, which must own the folder.
  const user = asRoot ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', '--'] : [];
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
  }
  const data = path.join(dir, 'data');
  const command = (name: string, args: string[]) => (asRoot ? [user[0], [...user.slice(1), path.join(bin, name), ...args]] as const : [path.join(bin, name), args] as const);
  const [initdb, initArgs] = command('initdb', ['-D', data, '-U', 'folio', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  await run(initdb, initArgs);
  const port = await freePort();
  // fsync off: these clusters are thrown away, and the tests kill Folio processes, never PostgreSQL.
  const [postgres, args] = command('postgres', ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=300']);
  const child: ChildProcess = spawn(postgres, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const url = `postgres://folio@127.0.0.1:${port}/postgres`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (child.exitCode !== null || attempt > 200) throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${log}`, { cause: err });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A new empty database on the cluster at `adminUrl`; returns its URL. */
export async function createTestDatabase(adminUrl: string): Promise<string> {
  const name = `folio_${crypto.randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

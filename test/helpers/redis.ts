// A throwaway Redis server for the tests: Debian's `redis-server` package (.ci/run installs it),
// started on a free port with its files in a temp dir, nothing saved to disk. Each test file that
// needs one starts its own, so files running in parallel never see each other's counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  /** redis://127.0.0.1:<port> */
  url: string;
  stop(): Promise<void>;
}

/** True once something accepts connections on the port and answers PING. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

export async function startRedis(): Promise<TestRedis> {
  if (!existsSync(REDIS_SERVER)) throw new Error('Redis is not installed: apt-get install -y redis-server (the tests start their own server)');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; !(await answers(port)); attempt++) {
    if (child.exitCode !== null || attempt > 200) {
      child.kill();
      throw new Error(`Redis did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

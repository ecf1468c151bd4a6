// Shared test helpers: start the real server (built service role, real data dir) as a child
// process on a free port, run the admin CLI, and speak HTTP to the API. Every /v1 and /healthz
// answer is checked against src/api/openapi.json (api-contract.ts) unless the request says why it
// is outside the API's contract (`outsideContract`).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectDocumented } from './api-contract.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = path.join(ROOT, 'src/server.ts');
export const ADMIN = path.join(ROOT, 'scripts/admin.ts');
export const KEY_PATTERN = /folio_[A-Za-z0-9_-]{43}/;

/**
 * Settings that stop the server's rate-limit clock at `at` (FOLIO_TEST_CLOCK, tests only; see
 * src/service/config.ts): every request counts in that one window, so a burst can never straddle
 * two minutes and no test waits for the next one. Nodes that share a limiter get the same instant.
 * The server accepts it because it inherits NODE_ENV=test from vitest.
 */
export const pinnedClock = (at = Date.now()): Record<string, string> => ({ FOLIO_TEST_CLOCK: String(at) });

/** Limits high enough that tests not about rate limiting never meet them. */
export const GENEROUS_LIMITS = 'free=1000000,pro=1000000,business=1000000';

export async function tempDataDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'folio-test-'));
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  /** The key printed on first start (undefined when the data dir was not empty). */
  defaultKey?: string;
  process: ChildProcess;
  output(): string;
  /**
   * Resolves once the output matches `pattern`. stdout and stderr are two pipes: a line the server
   * wrote to stderr before its listening line on stdout may still be unread when startServer returns.
   */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  /** Waits for the process to exit (for signals sent by the test). */
  exited: Promise<number | null>;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Gives up (killing the process) when it has neither listened nor exited in this time: the failure then shows what it printed. */
  startTimeoutMs?: number;
}

/**
 * What a hung process was doing, read from /proc: each thread's name, state and the kernel function
 * it sleeps in (a server once printed that it could not start and then did not exit for minutes).
 */
function processState(pid: number | undefined): string {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    return tasks
      .map((task) => {
        const read = (file: string) => fs.readFileSync(`/proc/${pid}/task/${task}/${file}`, 'utf8').trim();
        const state = /^State:\s*(.*)$/m.exec(read('status'))?.[1];
        return `${task} ${read('comm')}: ${state}, in ${read('wchan') || '-'}`;
      })
      .join('\n');
  } catch (error) {
    return `unreadable (${String(error)})`;
  }
}

/** Starts `node src/server.ts` on port 0 and waits until it is listening. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDataDir());
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    // Repositories connected by tests that are not about sync fail at once, without the network;
    // so do custom-domain lookups of tests that run no DNS server (nothing listens on port 9).
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      FOLIO_DATA_DIR: dataDir,
      FOLIO_RATE_LIMITS: GENEROUS_LIMITS,
      FOLIO_GIT_URL: 'file:///nonexistent/{owner}/{name}.git',
      FOLIO_GIT_PROTOCOLS: 'file',
      FOLIO_DNS_SERVERS: '127.0.0.1:9',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const match = /Folio listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on('data', check);
    exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
    if (options.startTimeoutMs !== undefined) {
      setTimeout(() => {
        if (child.exitCode !== null || /Folio listening on/.test(output)) return;
        const state = processState(child.pid);
        child.kill('SIGKILL');
        reject(new Error(`server neither listened nor exited in ${options.startTimeoutMs} ms; it printed:\n${output}\nits threads then (Linux /proc):\n${state}`));
      }, options.startTimeoutMs).unref();
    }
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    defaultKey: KEY_PATTERN.exec(output)?.[0],
    process: child,
    output: () => output,
    waitForOutput: (pattern, timeoutMs = 10_000) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return false;
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          clearTimeout(timer);
          resolve(output);
          return true;
        };
        const timer = setTimeout(() => reject(new Error(`the server's output did not match ${pattern} in ${timeoutMs} ms:\n${output}`)), timeoutMs);
        if (check()) return;
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
      }),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> …args` with the given env and collects its output. */
export function runNode(script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm run admin -- …args` against a data dir. */
export function admin(dataDir: string, ...args: string[]): Promise<CliResult> {
  return runNode(ADMIN, args, { FOLIO_DATA_DIR: dataDir });
}

/** Creates an org (via the admin CLI) and a key for it; returns the key value and org id. */
export async function orgWithKey(dataDir: string, name: string, plan = 'business', scopes = 'all'): Promise<{ key: string; orgId: string }> {
  const org = await admin(dataDir, 'org', 'create', name, '--plan', plan, '--json');
  if (org.code !== 0) throw new Error(`org create failed: ${org.stderr}`);
  const created = await admin(dataDir, 'key', 'create', '--org', name, '--scopes', scopes);
  if (created.code !== 0) throw new Error(`key create failed: ${created.stderr}`);
  return { key: created.stdout.trim().split('\n').at(-1)!, orgId: JSON.parse(org.stdout).org.id };
}

/** A JSON answer as tests read it: any field, without a cast (its shape is checked against openapi.json). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface RequestOptions {
  key?: string;
  /** A value sent as JSON; a string as is (Content-Type JSON unless given); bytes or a stream raw, with no Content-Type added. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Why this request is outside the API's contract on purpose: its answer is not checked against the document. */
  outsideContract?: string;
}

function requestBody(body: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array || body instanceof ReadableStream) return body as BodyInit;
  headers['content-type'] ??= 'application/json';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** Sends one request; JSON bodies are encoded and decoded; API answers must match the document. */
export async function request(base: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const body = requestBody(options.body, headers);
  const init = { method, headers, body, duplex: body instanceof ReadableStream ? 'half' : undefined };
  const res = await fetch(base + path, init as RequestInit);
  const text = await res.text();
  if (!options.outsideContract) expectDocumented({ method, path, status: res.status, headers: res.headers, text });
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A client bound to a server and a key. */
export function client(base: string, key?: string) {
  return (method: string, path: string, options: RequestOptions = {}) => request(base, method, path, { key, ...options });
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

let counter = 0;
/** A slug unique within a test run. */
export function uniqueSlug(prefix = 'p'): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

/** Node's response headers as a fetch `Headers`. */
export function toHeaders(incoming: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return headers;
}

/**
 * A GET with an explicit Host header (fetch does not let a caller set Host). An answer on an API
 * path is checked against the document unless `outsideContract` says why not (a site host).
 */
export function getWithHost(
  base: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
  outsideContract?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        try {
          if (!outsideContract) expectDocumented({ method: 'GET', path, status: res.statusCode!, headers: toHeaders(res.headers), text });
          resolve({ status: res.statusCode!, headers: res.headers, text });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

// `folio dev`: the local preview of the docs repository the author stands in (content/authoring/cli.mdx).
// It is `npm run dev` (astro dev with the site role, integration.ts) run from Folio's checkout on
// Folio's Node, on the author's folder: the same renderer as deployments. Astro works in a folder of
// its own in Folio's checkout (.folio-builds/, one per repository, kept between runs for its cache),
// never in the author's repository. The repository is checked first, as a deployment checks it,
// and the problems are printed; a page with a problem shows Astro's error overlay in the browser.
// When the preview cannot start or stops (a docs.json it cannot read), the command says so and
// starts it again at the next change, instead of leaving a dead server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRepository, formatCheck } from './check.ts';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));
const ASTRO = path.join(CHECKOUT, 'node_modules/astro/bin/astro.mjs');

export interface DevOptions {
  root: string;
  port?: number;
  allowCode: boolean;
  write(text: string): void;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Whether something answers HTTP on the port yet. */
async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(5000) })).body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder Astro works in for the preview of `root`: inside Folio's checkout (ignored by git),
 * where Astro resolves its own modules, as npm run dev does; one per repository, kept for its cache.
 */
export function devBuildRoot(root: string): string {
  return path.join(CHECKOUT, '.folio-builds', `dev-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`);
}

/** Runs the preview until the command is interrupted; resolves with the exit code. */
export async function dev(options: DevOptions): Promise<number> {
  const { root, write } = options;
  const port = options.port ?? (await freePort());
  const buildRoot = devBuildRoot(root);
  fs.mkdirSync(buildRoot, { recursive: true });
  const url = `http://127.0.0.1:${port}/`;

  const check = async (onlyPages?: string[]) => {
    const outcome = await checkRepository(root, options.allowCode, onlyPages);
    if (outcome.results.length) write(`${formatCheck(outcome)}\n`);
  };
  await check();

  let child: ChildProcess | undefined;
  let stopping = false;
  let watcher: fs.FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Ready before anything starts: an interrupt while the preview starts stops it too.
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      stopping = true;
      watcher?.close();
      clearTimeout(timer);
      if (!child) return resolve(0);
      child.once('exit', () => resolve(0));
      child.kill('SIGTERM');
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const start = () => {
    child = spawn(process.execPath, [ASTRO, 'dev', '--root', buildRoot, '--config', path.relative(buildRoot, path.join(CHECKOUT, 'astro.config.mjs')), '--host', '127.0.0.1', '--port', String(port)], {
      cwd: CHECKOUT,
      env: {
        ...process.env,
        FOLIO_ROLE: 'site',
        FOLIO_CONTENT_ROOT: root,
        FOLIO_BUILD_ROOT: buildRoot,
        FOLIO_BUILD_ALLOW_CODE: options.allowCode ? '1' : '0',
        // Every MDX page a module, as on the MDX path of a build (the same HTML, tested): a save goes
        // through Vite's own module reload and a syntax error is its overlay, where a page kept as
        // data changed only once Astro had rewritten its content store, a race a save could lose.
        FOLIO_STATIC_MDX: '0',
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => {
      child = undefined;
      if (!stopping) write(`folio: the preview stopped (exit code ${code}): fix the problem above; it starts again when a file changes\n`);
    });
  };
  start();
  for (const deadline = Date.now() + 120_000; !stopping && !(await answers(url)); ) {
    if (!child || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child && !stopping) write(`Folio preview of ${root}: ${url}\n`);

  // Problems of changed files in the terminal as well, not only in the browser; a stopped preview
  // starts again. Changes come in bursts (an editor's save, a git checkout): one run per burst.
  // Only the pages that changed are checked again (with every snippet and docs.json): a save on a
  // 1,000-page repository does not check 1,000 pages.
  const changed = new Set<string>();
  if (!stopping) watcher = fs.watch(root, { recursive: true }, (_event, name) => {
    if (name && /(^|[\\/])(\.git|node_modules)([\\/]|$)/.test(name)) return;
    if (name) changed.add(name.split(path.sep).join('/'));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const pages = [...changed];
      changed.clear();
      check(pages).catch((error: unknown) => write(`folio: the check failed: ${(error as Error).message}\n`));
      if (!child && !stopping) start();
    }, 200);
  });
  return stopped;
}

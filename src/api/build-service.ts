// Builds the service role (`astro build` with FOLIO_ROLE=service) when dist/service is missing or
// older than its inputs, so `npm start` works on a fresh clone and tests build only once. The
// bundle holds only the endpoint files and Astro: every other Folio module is imported from source
// (src/api/astro-config.ts), so a change to the service or the pipeline needs no rebuild.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where the service role is built (the Astro config's outDir, relative to the project root). */
export const SERVICE_OUT_DIR = 'dist/service';
export const SERVICE_ENTRY = path.join(root, SERVICE_OUT_DIR, 'server/entry.mjs');
/**
 * What the bundle is made of: the endpoints, the console's pages, styles and browser scripts (with
 * the site's sanitising Markdown renderer its editor preview bundles), and the build's configuration.
 */
const SOURCES = ['src/api/endpoints', 'src/api/fetch.ts', 'src/api/integration.ts', 'src/api/astro-config.ts', 'src/api/adapter.ts', 'src/api/astro-entry.ts', 'src/console', 'src/site/openapi/markdown.ts', 'astro.config.mjs', 'package.json'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when the built service is missing or older than a source file. */
export function serviceBuildIsStale(): boolean {
  if (!existsSync(SERVICE_ENTRY)) return true;
  const built = statSync(SERVICE_ENTRY).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

/** Runs `astro build` for the service role if needed; resolves when dist/service is fresh. */
export async function ensureServiceBuilt(log: (line: string) => void = console.log): Promise<void> {
  if (!serviceBuildIsStale()) return;
  log('Building the Folio service (dist/service)…');
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  const child = spawn(process.execPath, [astro, 'build'], {
    cwd: root,
    env: { ...process.env, FOLIO_ROLE: 'service' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`building the service failed (exit ${code}):\n${output}`);
}

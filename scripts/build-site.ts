// npm run build:site -- <content-root> <out-dir> [--allow-code] [--sandbox=auto|required|off]: builds
// one content root into a static docs site, in the build sandbox when bubblewrap works here
// (FOLIO_SANDBOX or --sandbox chooses; FOLIO_BWRAP_PATH names the binary). --allow-code builds it as
// a project with code enabled (allow_code: imports of .js/.jsx/.ts/.tsx files, `export const`
// components, React components hydrated in the browser); such a build needs the sandbox.
import path from 'node:path';
import { buildSite } from '../src/site/build.ts';
import { SANDBOX_MODES, sandboxAvailable, type SandboxMode } from '../src/site/sandbox.ts';

const USAGE = `usage: npm run build:site -- <content-root> <out-dir> [--allow-code] [--sandbox=${SANDBOX_MODES.join('|')}]`;
const args = process.argv.slice(2);
const allowCode = args.includes('--allow-code');
const flag = args.find((a) => a.startsWith('--sandbox='));
const [contentRoot, outDir, ...rest] = args.filter((a) => a !== flag && a !== '--allow-code');
const mode = (flag?.slice('--sandbox='.length) ?? (process.env.FOLIO_SANDBOX || 'auto')) as SandboxMode;
if (!contentRoot || !outDir || rest.length || !SANDBOX_MODES.includes(mode)) {
  console.error(USAGE);
  process.exit(2);
}
const bwrapPath = process.env.FOLIO_BWRAP_PATH || 'bwrap';
if (mode === 'auto') {
  const probe = await sandboxAvailable({ bwrapPath });
  if (!probe.ok) console.warn(`warning: building WITHOUT the sandbox: ${probe.reason} (install bubblewrap, or pass --sandbox=off to silence this)`);
}
const result = await buildSite({
  contentRoot: path.resolve(contentRoot),
  outDir: path.resolve(outDir),
  siteUrl: process.env.FOLIO_SITE_URL,
  timeoutMs: Number(process.env.FOLIO_BUILD_TIMEOUT_S ?? 600) * 1000,
  onLog: (line) => console.log(line),
  sandbox: { mode, bwrapPath },
  allowCode,
});
if (!result.ok) {
  console.error(`build failed (${result.error?.code}) after ${(result.durationMs / 1000).toFixed(1)} s`);
  process.exit(1);
}
console.log(`built ${result.pageCount} page(s) into ${path.resolve(outDir)} in ${(result.durationMs / 1000).toFixed(1)} s`);

// npm run build:site -- <content-root> <out-dir> [--allow-code] [--sandbox=auto|required|off]: builds
// one content root into a static docs site, in the build sandbox when bubblewrap works here
// (FOLIO_SANDBOX or --sandbox chooses; FOLIO_BWRAP_PATH names the binary). --allow-code builds it as
// a project with code enabled (allow_code: imports of .js/.jsx/.ts/.tsx files, `export const`
// components, React components hydrated in the browser); such a build needs the sandbox. The build
// limits (FOLIO_BUILD_TIMEOUT_S, FOLIO_CHECK_TIMEOUT_MS, FOLIO_BUILD_MEMORY_MB) are read and
// validated as the server reads them (src/builder/build-limits.ts); FOLIO_SITE_URL is checked by buildSite.
import path from 'node:path';
import { buildSite } from '../src/builder/build.ts';
import { buildSandboxOf, readBuildLimits, type BuildLimits } from '../src/builder/build-limits.ts';
import { ConfigError } from '../src/lib/env-settings.ts';
import { SANDBOX_MODES, sandboxAvailable, type SandboxMode } from '../src/builder/sandbox.ts';

const USAGE = `usage: npm run build:site -- <content-root> <out-dir> [--allow-code] [--sandbox=${SANDBOX_MODES.join('|')}]`;
const args = process.argv.slice(2);
const allowCode = args.includes('--allow-code');
const flag = args.find((a) => a.startsWith('--sandbox='));
const [contentRoot, outDir, ...rest] = args.filter((a) => a !== flag && a !== '--allow-code');
let limits: BuildLimits;
try {
  limits = readBuildLimits();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const mode = (flag?.slice('--sandbox='.length) ?? limits.sandbox) as SandboxMode;
if (!contentRoot || !outDir || rest.length || !SANDBOX_MODES.includes(mode)) {
  console.error(USAGE);
  process.exit(2);
}
const { bwrapPath } = limits;
if (mode === 'auto') {
  const probe = await sandboxAvailable({ bwrapPath });
  if (!probe.ok) console.warn(`warning: building WITHOUT the sandbox: ${probe.reason} (install bubblewrap, or pass --sandbox=off to silence this)`);
}
const result = await buildSite({
  contentRoot: path.resolve(contentRoot),
  outDir: path.resolve(outDir),
  siteUrl: process.env.FOLIO_SITE_URL,
  timeoutMs: limits.buildTimeoutS * 1000,
  onLog: (line) => console.log(line),
  sandbox: { ...buildSandboxOf(limits), mode },
  allowCode,
});
if (!result.ok) {
  console.error(`build failed (${result.error?.code}) after ${(result.durationMs / 1000).toFixed(1)} s`);
  process.exit(1);
}
console.log(`built ${result.pageCount} page(s) into ${path.resolve(outDir)} in ${(result.durationMs / 1000).toFixed(1)} s`);

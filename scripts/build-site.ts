// npm run build:site -- <content-root> <out-dir> [--allow-code]: builds one content root into a
// static docs site. --allow-code builds it as a project with code enabled (allow_code: imports of
// .js/.jsx/.ts/.tsx files, `export const` components, React components hydrated in the browser).
import path from 'node:path';
import { buildSite } from '../src/site/build.ts';

const args = process.argv.slice(2);
const allowCode = args.includes('--allow-code');
const [contentRoot, outDir, ...rest] = args.filter((a) => a !== '--allow-code');
if (!contentRoot || !outDir || rest.length) {
  console.error('usage: npm run build:site -- <content-root> <out-dir> [--allow-code]');
  process.exit(2);
}
const result = await buildSite({
  contentRoot: path.resolve(contentRoot),
  outDir: path.resolve(outDir),
  siteUrl: process.env.FOLIO_SITE_URL,
  timeoutMs: Number(process.env.FOLIO_BUILD_TIMEOUT_S ?? 600) * 1000,
  onLog: (line) => console.log(line),
  allowCode,
});
if (!result.ok) {
  console.error(`build failed (${result.error?.code}) after ${(result.durationMs / 1000).toFixed(1)} s`);
  process.exit(1);
}
console.log(`built ${result.pageCount} page(s) into ${path.resolve(outDir)} in ${(result.durationMs / 1000).toFixed(1)} s`);

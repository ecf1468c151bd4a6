// npm run build:site -- <content-root> <out-dir>: builds one content root into a static docs site.
import path from 'node:path';
import { buildSite } from '../src/site/build.ts';

const [contentRoot, outDir] = process.argv.slice(2);
if (!contentRoot || !outDir) {
  console.error('usage: npm run build:site -- <content-root> <out-dir>');
  process.exit(2);
}
const result = await buildSite({
  contentRoot: path.resolve(contentRoot),
  outDir: path.resolve(outDir),
  siteUrl: process.env.FOLIO_SITE_URL,
  timeoutMs: Number(process.env.FOLIO_BUILD_TIMEOUT_S ?? 600) * 1000,
  onLog: (line) => console.log(line),
});
if (!result.ok) {
  console.error(`build failed (${result.error?.code}) after ${(result.durationMs / 1000).toFixed(1)} s`);
  process.exit(1);
}
console.log(`built ${result.pageCount} page(s) into ${path.resolve(outDir)} in ${(result.durationMs / 1000).toFixed(1)} s`);

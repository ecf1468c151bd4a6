// npm run test:durations: writes test/durations.json, each test file's duration in seconds in the
// last full run recorded here (vitest's cache), for the order of a run with no record
// (test/helpers/slowest-first.ts). Run it after `npm test` when files were added or became slower.
import fs from 'node:fs';
import path from 'node:path';
import { DURATIONS_FILE } from '../test/helpers/slowest-first.ts';

const cacheDir = path.join(import.meta.dirname, '..', 'node_modules', '.vite', 'vitest');
const records = fs.existsSync(cacheDir)
  ? fs.readdirSync(cacheDir).map((dir) => path.join(cacheDir, dir, 'results.json')).filter((file) => fs.existsSync(file))
  : [];
const newest = records.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
if (!newest) {
  console.error('no record of a test run: run npm test first');
  process.exit(1);
}
const record = JSON.parse(fs.readFileSync(newest, 'utf8')) as { projects: Record<string, { files: Record<string, { duration: number }> }> };
const root = path.join(import.meta.dirname, '..');
// Files removed since are left out.
const files = Object.values(record.projects).flatMap((project) => Object.entries(project.files)).filter(([file]) => fs.existsSync(path.join(root, file)));
const seconds = Object.fromEntries(files.map(([file, { duration }]) => [file, Math.round(duration / 100) / 10]).sort(([a], [b]) => (a < b ? -1 : 1)));
fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`${DURATIONS_FILE}: ${files.length} files`);

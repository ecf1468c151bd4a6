// npm run count:md-tags -- <build output dir> [--list]: counts the HTML and JSX tags left in the
// Markdown of every page of a build (each `.md` file of the output; src/site/markdown/
// leftover-tags.ts says what counts). Prints the files with tags, the count per tag name and the
// total; --list prints every tag as `file:line: tag`. Exit code 1 when any tag is left, 2 for bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { leftoverTags } from '../src/site/markdown/leftover-tags.ts';

const USAGE = 'usage: npm run count:md-tags -- <build output dir> [--list]';
const args = process.argv.slice(2);
const list = args.includes('--list');
const [dir, ...rest] = args.filter((a) => a !== '--list');
if (!dir || rest.length || dir.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
if (!fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`${dir}: not a directory`);
  process.exit(2);
}

// The pages' Markdown only: the build's own folders (scripts, search index) hold none.
const files = (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
  .filter((e) => e.isFile() && e.name.endsWith('.md'))
  .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
  .filter((rel) => !/^(_astro|_folio|pagefind)\//.test(rel))
  .sort();
const byName = new Map<string, number>();
let total = 0;
let withTags = 0;
for (const rel of files) {
  const tags = leftoverTags(fs.readFileSync(path.join(dir, rel), 'utf8'));
  if (!tags.length) continue;
  withTags++;
  total += tags.length;
  for (const tag of tags) byName.set(tag.name, (byName.get(tag.name) ?? 0) + 1);
  if (list) for (const tag of tags) console.log(`${rel}:${tag.line}: ${tag.tag}`);
  else console.log(`${rel}: ${tags.length}`);
}
const names = [...byName].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
if (names.length) console.log(`by tag: ${names.map(([name, count]) => `<${name}> ${count}`).join(', ')}`);
console.log(`${files.length} Markdown files, ${withTags} with tags, ${total} tags left`);
process.exit(total ? 1 : 0);

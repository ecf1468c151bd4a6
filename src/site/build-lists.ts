// Files a build lists in one endpoint render and writes with the file system once Astro is done
// (redirect pages, redirects.ts; each page's .md file, page-markdown-files.ts): an endpoint render
// per file costs several times more than writing it (docs/decisions.md, "Build speed after the
// real-repository work").
import fs from 'node:fs';
import path from 'node:path';

/** The text of the list at `file` (relative to `outDir`), removed from the output; undefined when the build wrote none. */
export function takeList(outDir: string, file: string): string | undefined {
  const list = path.join(outDir, file);
  if (!fs.lstatSync(list, { throwIfNoEntry: false })?.isFile()) return undefined;
  const text = fs.readFileSync(list, 'utf8');
  fs.rmSync(list);
  return text;
}

/**
 * Writes `text` at `segments` (the path's folders and name) inside `outDir`, creating its folders;
 * false, and nothing written, when the path would leave `outDir` or a file is already there (a page
 * or a static file at that address is kept). `made` remembers the folders already made.
 */
export function writeNewFile(outDir: string, segments: string[], text: string, made = new Set<string>()): boolean {
  if (!segments.length || segments.some((s) => !s || s === '.' || s === '..' || s.includes('\0'))) return false;
  const file = path.join(outDir, ...segments);
  if (!file.startsWith(`${outDir}${path.sep}`)) return false;
  const dir = path.dirname(file);
  if (!made.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  try {
    // `wx`: never over a file already there.
    fs.writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

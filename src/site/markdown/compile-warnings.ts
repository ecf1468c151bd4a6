// Warnings that compiling a page writes to the build log (image-paths.ts: a missing image). A page
// the static compile cannot keep as data is compiled a second time on the MDX path
// (static-mdx.ts), and each compile would log the same warnings: the static compile holds the
// lines of its page and logs them only when the page stays as data; when it falls back, the MDX
// path's compile logs them, once.
import path from 'node:path';

/**
 * Lines held per file (absolute path), shared on globalThis: the build loads this module both
 * through Node and through Vite, and both copies must see the same holds.
 */
const held: Map<string, string[]> = ((globalThis as { [key: symbol]: unknown })[Symbol.for('folio.compileWarnings')] ??= new Map()) as Map<string, string[]>;

/** Logs `line`, a warning about `file`, unless a compile of that file holds its warnings. */
export function compileWarning(file: string, line: string): void {
  const lines = held.get(path.resolve(file));
  if (lines) lines.push(line);
  else console.warn(line);
}

/**
 * Runs `compile` on `file` with its warnings held; they are logged when it returns (its result is
 * used), and dropped when it throws (the file is compiled again).
 */
export async function withHeldWarnings<T>(file: string, compile: () => Promise<T>): Promise<T> {
  const key = path.resolve(file);
  const lines: string[] = [];
  held.set(key, lines);
  let result: T;
  try {
    result = await compile();
  } finally {
    held.delete(key);
  }
  for (const line of lines) console.warn(line);
  return result;
}

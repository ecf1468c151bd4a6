// A build's output, as the server reads it into the deployment log: lines split wherever the chunks
// break, cut at MAX_LOG_LINE characters; paths that climb into the server's directories hidden,
// paths a tenant wrote itself kept as written.
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineReader, MAX_LOG_LINE } from '../../src/builder/build-log.ts';
import { BUILDS_DIR } from '../../src/builder/build-roots.ts';
import { repoRoot } from '../../src/site/settings.ts';
import { listServerDirs, scrubPaths, type PathView } from '../../src/builder/tenant-paths.ts';

/** The lines `lineReader` gives for `chunks`, written one by one. */
async function linesOf(chunks: string[]): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  lineReader(stream, (line) => lines.push(line));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await ended;
  return lines;
}

describe('the build log reader', () => {
  it('joins a line split over chunks, drops blank lines and colour codes', async () => {
    expect(await linesOf(['buil', 'ding \x1b[32mpage\x1b[39m', 's\n\n  \nlast'])).toEqual(['building pages', 'last']);
  });

  it('cuts a line over the limit, keeps the next one whole', async () => {
    const long = 'y'.repeat(MAX_LOG_LINE * 3);
    const chunks = [long.slice(0, 1000), long.slice(1000, MAX_LOG_LINE * 2), `${long.slice(MAX_LOG_LINE * 2)}\nnext line\n`];
    expect(await linesOf(chunks)).toEqual([`${'y'.repeat(MAX_LOG_LINE)} … (line cut at ${MAX_LOG_LINE} characters)`, 'next line']);
  });

  it('cuts an unfinished last line as well', async () => {
    expect(await linesOf(['z'.repeat(MAX_LOG_LINE + 1)])).toEqual([`${'z'.repeat(MAX_LOG_LINE)} … (line cut at ${MAX_LOG_LINE} characters)`]);
  });
});

describe('climbing paths in the log', () => {
  it('hides those that reach the install, keeps those the tenant made up', async () => {
    const view: PathView = { contentRoots: ['/input/site'], hidden: [repoRoot], base: path.join(BUILDS_DIR, 'a-build'), hiddenRelative: [] };
    await listServerDirs(view);
    expect(scrubPaths('at ../../src/site/build.ts:3:1', view)).toBe('at …:3:1');
    expect(scrubPaths('at ../../package.json', view)).toBe('at …');
    expect(scrubPaths('file "../docs.json" is outside _snippets/', view)).toBe('file "../docs.json" is outside _snippets/');
    expect(scrubPaths('openapi "../../etc/passwd" is outside', view)).toBe('openapi "../../etc/passwd" is outside');
  });
});

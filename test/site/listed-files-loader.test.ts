// The listed-files loader's choice of what to read (src/site/loaders/listed-files-loader.ts): in a
// fast redeploy's build over the previous build's carried store, a file git says did not change
// and whose entry the store holds is not read at all; the changed pages, files with no entry and
// entries of another file are read; entries of files no longer listed are deleted. Without
// `unchanged` (a full build, astro dev) every file is read. Real files; Astro's loader context is
// stood in for by the few parts the loader uses.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoaderContext } from 'astro/loaders';
import { listedFiles, type EntryType } from '../../src/site/loaders/listed-files-loader.ts';

type Entry = { id: string; body?: string; filePath?: string; digest?: string; data: Record<string, unknown> };

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A root with `pages/` holding `files`, and a store holding `stored` (entries as an earlier build wrote them). */
function setup(files: Record<string, string>, stored: Record<string, { file: string; text: string }>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-listed-'));
  dirs.push(root);
  const base = path.join(root, 'pages');
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
    fs.writeFileSync(path.join(base, file), text);
  }
  const entries = new Map<string, Entry>(Object.entries(stored).map(([id, { file, text }]) => [id, { id, body: text, filePath: `pages/${file}`, digest: digest(text), data: {} }]));
  const loaded: Array<[string, boolean]> = [];
  const entryType: EntryType = { getEntryInfo: ({ contents }) => ({ body: contents, data: {} }) };
  const context = {
    config: { root: pathToFileURL(`${root}/`) },
    logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
    parseData: async ({ data }: { data: Record<string, unknown> }) => data,
    generateDigest: digest,
    entryTypes: new Map([['.mdx', entryType]]),
    store: {
      get: (id: string) => entries.get(id),
      set: (entry: Entry) => entries.set(entry.id, entry),
      delete: (id: string) => entries.delete(id),
      keys: () => [...entries.keys()],
      addModuleImport: () => undefined,
    },
    fileLoaded: (read: boolean) => loaded.push(['', read]),
  };
  return { base, entries, loaded, context: context as unknown as LoaderContext };
}

const pageId = (file: string) => file.replace(/\.mdx$/, '');

describe('the listed-files loader over a carried store', () => {
  it('keeps the entries of files git says did not change without reading them, and reads the rest', async () => {
    // On disk every page differs from its stored entry: only what is read shows the new text.
    const { base, entries, loaded, context } = setup(
      { 'changed.mdx': 'new changed', 'kept.mdx': 'new kept', 'guides/kept.mdx': 'new nested', 'added.mdx': 'new added', 'moved.mdx': 'new moved' },
      { changed: { file: 'changed.mdx', text: 'old changed' }, kept: { file: 'kept.mdx', text: 'old kept' }, 'guides/kept': { file: 'guides/kept.mdx', text: 'old nested' }, moved: { file: 'elsewhere.mdx', text: 'old moved' }, removed: { file: 'removed.mdx', text: 'old removed' } },
    );
    const files = ['changed.mdx', 'kept.mdx', 'guides/kept.mdx', 'added.mdx', 'moved.mdx'];
    await listedFiles({ base, files, generateId: pageId, unchanged: (id) => id !== 'changed' }).load(context);
    expect(entries.get('changed')?.body).toBe('new changed');
    expect(entries.get('kept')?.body).toBe('old kept');
    expect(entries.get('guides/kept')?.body).toBe('old nested');
    // No entry, or an entry of another file: read.
    expect(entries.get('added')?.body).toBe('new added');
    expect(entries.get('moved')).toMatchObject({ body: 'new moved', filePath: 'pages/moved.mdx' });
    expect(entries.has('removed')).toBe(false);
    expect(loaded.filter(([, read]) => read)).toHaveLength(3);
    expect(loaded).toHaveLength(5);
  });

  it('reads every file without `unchanged` (a full build, astro dev), keeping only entries whose file has the stored digest', async () => {
    const { base, entries, loaded, context } = setup(
      { 'changed.mdx': 'new changed', 'same.mdx': 'same text' },
      { changed: { file: 'changed.mdx', text: 'old changed' }, same: { file: 'same.mdx', text: 'same text' } },
    );
    const kept = entries.get('same');
    await listedFiles({ base, files: ['changed.mdx', 'same.mdx'], generateId: pageId }).load(context);
    expect(entries.get('changed')?.body).toBe('new changed');
    expect(entries.get('same')).toBe(kept);
    expect(loaded).toEqual([['', true], ['', true]]);
  });
});

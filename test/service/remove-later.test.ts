// src/lib/remove-later.ts: a folder that cannot be moved aside (here its trash folder is on another
// filesystem) is removed where it is, and its path is free only once that removal has ended. A
// caller (a warm worker copying the next build's content into the same input path) may put
// something new there as soon as removeLater resolves: that must stay.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removalsSettled, removeLater } from '../../src/lib/remove-later.ts';
import { ROOT } from '../helpers/server.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('removeLater', () => {
  it('resolves only once a folder it could not move aside is gone, so what is put at its path next stays', async () => {
    // The folder on the install's filesystem, its trash folder on a tmpfs: the rename fails (EXDEV).
    const parent = mkdtempSync(path.join(ROOT, '.remove-later-'));
    const elsewhere = mkdtempSync(path.join('/dev/shm', 'remove-later-'));
    made.push(parent, elsewhere);
    const input = path.join(parent, 'content');
    mkdirSync(path.join(input, 'guides'), { recursive: true });
    for (let i = 0; i < 200; i++) writeFileSync(path.join(input, 'guides', `page-${i}.mdx`), `# Page ${i}\n`);

    await removeLater(input, elsewhere);
    expect(existsSync(input)).toBe(false);
    // The next build's content, at the same path.
    mkdirSync(input);
    writeFileSync(path.join(input, 'index.mdx'), '# The next build\n');
    await removalsSettled();
    expect(readdirSync(input)).toEqual(['index.mdx']);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

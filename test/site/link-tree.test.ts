import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkTree, removeTree } from '../../src/lib/link-tree.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-link-tree-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};

describe('removeTree (removals nobody waits for: snapshots, replaced content roots, pruned builds)', () => {
  it('removes a whole tree of folders and files, and the linked copy leaves the original whole', async () => {
    for (let i = 0; i < 30; i++) write(`root/section-${i % 3}/deep/page-${i}.mdx`, `# Page ${i}\n`);
    write('root/docs.json', '{}');
    await linkTree(path.join(dir, 'root'), path.join(dir, 'copy'));
    expect(fs.readFileSync(path.join(dir, 'copy/section-1/deep/page-4.mdx'), 'utf8')).toBe('# Page 4\n');
    await removeTree(path.join(dir, 'copy'));
    expect(fs.existsSync(path.join(dir, 'copy'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'root/section-1/deep/page-4.mdx'), 'utf8')).toBe('# Page 4\n');
    expect(fs.readdirSync(path.join(dir, 'root/section-2/deep'))).toHaveLength(10);
  });

  it('removes a link to a folder elsewhere, never what it points at', async () => {
    write('elsewhere/keep.txt', 'keep');
    write('tree/page.md', '# x');
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'tree/link'));
    fs.symlinkSync(path.join(dir, 'elsewhere/keep.txt'), path.join(dir, 'tree/file-link'));
    await removeTree(path.join(dir, 'tree'));
    expect(fs.existsSync(path.join(dir, 'tree'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'elsewhere/keep.txt'), 'utf8')).toBe('keep');
  });

  it('given a link to a folder, removes the link and leaves the folder it points at whole', async () => {
    write('elsewhere/keep.txt', 'keep');
    write('elsewhere/deep/page.md', '# kept');
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'snapshot'));
    await removeTree(path.join(dir, 'snapshot'));
    expect(fs.existsSync(path.join(dir, 'snapshot'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'elsewhere/keep.txt'), 'utf8')).toBe('keep');
    expect(fs.readFileSync(path.join(dir, 'elsewhere/deep/page.md'), 'utf8')).toBe('# kept');
  });

  it('takes a single file, and a path that is not there is no error', async () => {
    write('build.inputs.json', '{}');
    await removeTree(path.join(dir, 'build.inputs.json'));
    expect(fs.existsSync(path.join(dir, 'build.inputs.json'))).toBe(false);
    await expect(removeTree(path.join(dir, 'missing'))).resolves.toBeUndefined();
  });
});

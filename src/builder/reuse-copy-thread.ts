// The reuse copy's links (reuse-copy.ts), made in a worker thread with synchronous calls: linkTree's
// thousands of concurrent link() calls would fill libuv's threads, and the first requests of the
// site just made live would wait behind them (the same effect link-tree.ts's removeTree avoids).
// The same rules as linkTree: folders and regular files only, never a link or a special file.
import { constants, copyFileSync, linkSync, mkdirSync, opendirSync } from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';

const { from, to } = workerData as { from: string; to: string };

/** A hard link, or a copy where the filesystem refuses one (as link-tree.ts's linkFile). */
function link(source: string, dest: string): void {
  try {
    linkSync(source, dest);
  } catch (error) {
    if (!['EXDEV', 'EPERM', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    copyFileSync(source, dest, constants.COPYFILE_FICLONE);
  }
}
const folders = [''];
for (let rel = folders.pop(); rel !== undefined; rel = folders.pop()) {
  mkdirSync(path.join(to, rel));
  const dir = opendirSync(path.join(from, rel));
  try {
    for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) folders.push(child);
      else if (entry.isFile()) link(path.join(from, child), path.join(to, child));
    }
  } finally {
    dir.closeSync();
  }
}

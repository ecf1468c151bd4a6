// A deployment's log: one file per deployment under the project dir, one timestamped line per event.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { scrubPaths, type PathView } from '../../site/tenant-paths.ts';

export interface DeploymentLog {
  line(text: string): void;
  /** Resolves once every line written so far is in the file. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a deployment's log for appending. Tenants read it: `paths` says which server paths it may
 * name (files of the content root, relative to it) and which it must hide (everything else).
 */
export async function openDeploymentLog(file: string, paths: PathView): Promise<DeploymentLog> {
  await mkdir(path.dirname(file), { recursive: true });
  const stream: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  stream.on('error', () => undefined); // a log that cannot be written must not fail the deployment
  return {
    line(text) {
      stream.write(`${new Date().toISOString()} ${scrubPaths(text, paths)}\n`);
    },
    // Writes complete in order: the callback of an empty write runs after every earlier one.
    flush: () => new Promise((resolve) => (stream.writable ? stream.write('', () => resolve()) : resolve())),
    close: () => new Promise((resolve) => stream.end(() => resolve())),
  };
}

/** The log's text; empty before the deployment has started. */
export async function readDeploymentLog(file: string): Promise<string> {
  return readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
}

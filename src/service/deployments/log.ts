// A deployment's log: one file per deployment under the project dir, one timestamped line per event.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface DeploymentLog {
  line(text: string): void;
  /** Resolves once every line written so far is in the file. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a deployment's log for appending. `hide` lists server paths that must not appear in the
 * log (the snapshot dir becomes the content root's own relative paths, the data dir is elided).
 */
export async function openDeploymentLog(file: string, hide: { path: string; as: string }[]): Promise<DeploymentLog> {
  await mkdir(path.dirname(file), { recursive: true });
  const stream: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  stream.on('error', () => undefined); // a log that cannot be written must not fail the deployment
  return {
    line(text) {
      let clean = text;
      for (const { path: p, as } of hide) clean = clean.replaceAll(p, as);
      stream.write(`${new Date().toISOString()} ${clean}\n`);
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

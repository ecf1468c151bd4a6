// A deployment's log: one file per deployment under the project dir, one timestamped line per event.
// With object storage the building node writes the file as here and copies it into object storage
// as it grows, so that every node reads it (object-storage/logs.ts); `DeploymentLogs` is what the
// deployments service uses either way.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deploymentLogFile } from '../project-files.ts';
import { scrubPaths, type PathView } from '../../builder/tenant-paths.ts';

/** Deployments' logs, wherever they are kept. */
export interface DeploymentLogs {
  /** Opens a deployment's log for appending (see openDeploymentLog). */
  open(projectId: string, deploymentId: string, paths: PathView): Promise<DeploymentLog>;
  /** Writes a whole log at once (a promote's, which has no build). */
  write(projectId: string, deploymentId: string, text: string): Promise<void>;
  /** The log's text; empty before the deployment has started. */
  read(projectId: string, deploymentId: string): Promise<string>;
  /** The log as it is written, ending once `ended()` says the deployment is over (see followLog). */
  follow(projectId: string, deploymentId: string, ended: () => Promise<boolean>): ReadableStream<Uint8Array>;
}

/** Logs as files of the data dir. */
export function createDiskLogs(dataDir: string): DeploymentLogs {
  const fileOf = (projectId: string, deploymentId: string) => deploymentLogFile(dataDir, projectId, deploymentId);
  return {
    open: (projectId, deploymentId, paths) => openDeploymentLog(fileOf(projectId, deploymentId), paths),
    async write(projectId, deploymentId, text) {
      const file = fileOf(projectId, deploymentId);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text, { mode: 0o600 });
    },
    read: (projectId, deploymentId) => readDeploymentLog(fileOf(projectId, deploymentId)),
    follow: (projectId, deploymentId, ended) => followDeploymentLog(fileOf(projectId, deploymentId), ended),
  };
}

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
  // Writes complete in order: the last write's callback means every earlier line is in the file.
  let written: Promise<void> = Promise.resolve();
  return {
    line(text) {
      if (!stream.writable) return;
      written = new Promise((resolve) => stream.write(`${new Date().toISOString()} ${scrubPaths(text, paths)}\n`, () => resolve()));
    },
    flush: () => written,
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

const FOLLOW_POLL_MS = 200;

/** The bytes of a file from `offset` on, or undefined when there are none (or no file). */
export async function readFileFrom(file: string, offset: number): Promise<Uint8Array | undefined> {
  const handle = await open(file, 'r').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size <= offset) return undefined;
    const bytes = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The log as it is written: every byte already in the file, then new ones as they come, ending
 * once `ended()` says the deployment is over and the rest is read. A terminal status is recorded
 * only after every line is in the file (runner.ts), so nothing written is missed. Stops early
 * when the reader goes away.
 */
export function followDeploymentLog(file: string, ended: () => Promise<boolean>): ReadableStream<Uint8Array> {
  return followLog((offset) => readFileFrom(file, offset), ended);
}

/** Follows a log that `readFrom(offset)` reads the bytes of from `offset` on (see followDeploymentLog). */
export function followLog(readFrom: (offset: number) => Promise<Uint8Array | undefined>, ended: () => Promise<boolean>): ReadableStream<Uint8Array> {
  let offset = 0;
  let canceled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (!canceled) {
        // The status first: if it says ended, the file already holds every line.
        const over = await ended();
        const chunk = await readFrom(offset);
        if (chunk?.length) {
          offset += chunk.length;
          controller.enqueue(chunk);
          return;
        }
        if (over) {
          controller.close();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      }
    },
    cancel() {
      canceled = true;
    },
  });
}

// Deployments' logs in object storage: the building node writes the log file in its data dir as
// without object storage, and copies the whole file to `projects/{id}/logs/{deployment}.log` a
// second after new lines (and at once on flush, which the runner awaits before it records the
// deployment's end), so any node reads a running deployment's log at most a second behind and an
// ended one complete. The local file goes once the log is closed and copied.
import { readFile, rm } from 'node:fs/promises';
import { createDiskLogs, followLog, readFileFrom, type DeploymentLogs } from '../deployments/log.ts';
import { deploymentLogFile } from '../project-files.ts';
import type { ObjectStore } from './client.ts';
import { logKey } from './keys.ts';

const COPY_AFTER_MS = 1_000;

export function createObjectLogs(dataDir: string, objects: ObjectStore): DeploymentLogs {
  const disk = createDiskLogs(dataDir);
  const fileOf = (projectId: string, deploymentId: string) => deploymentLogFile(dataDir, projectId, deploymentId);
  return {
    async open(projectId, deploymentId, paths) {
      const file = fileOf(projectId, deploymentId);
      const log = await disk.open(projectId, deploymentId, paths);
      // Copies one after another, each of the whole file: the last one holds every line.
      let copied: Promise<void> = Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const copy = () => {
        clearTimeout(timer);
        timer = undefined;
        copied = copied.then(async () => {
          await log.flush();
          await objects.put(logKey(projectId, deploymentId), await readFile(file), { contentType: 'text/plain; charset=utf-8' });
        });
        return copied;
      };
      return {
        line(text) {
          log.line(text);
          timer ??= setTimeout(() => void copy().catch(() => {}), COPY_AFTER_MS);
        },
        flush: () => copy(),
        async close() {
          await log.close();
          await copy().catch(() => {}); // a log that cannot be copied must not fail the deployment
          await rm(file, { force: true });
        },
      };
    },
    async write(projectId, deploymentId, text) {
      await objects.put(logKey(projectId, deploymentId), text, { contentType: 'text/plain; charset=utf-8' });
    },
    async read(projectId, deploymentId) {
      // This node's file while it builds the deployment (newest), else the copy.
      const local = await readFileFrom(fileOf(projectId, deploymentId), 0);
      if (local) return Buffer.from(local).toString('utf8');
      return (await objects.get(logKey(projectId, deploymentId)))?.toString('utf8') ?? '';
    },
    follow(projectId, deploymentId, ended) {
      const file = fileOf(projectId, deploymentId);
      return followLog(async (offset) => (await readFileFrom(file, offset)) ?? (await objects.getFrom(logKey(projectId, deploymentId), offset)), ended);
    },
  };
}

// The build queue: the store's `queued` deployments are the queue (so it survives a restart);
// FOLIO_BUILD_CONCURRENCY slots run them oldest first, never two of one project at a time. Each
// slot has its own warm build worker, started in the build sandbox (FOLIO_SANDBOX).
import type { BuildSandbox } from '../../site/build.ts';
import { WarmWorker } from '../../site/warm-worker.ts';
import type { DeploymentRecord, Store } from '../store.ts';
import type { StopCause } from './runner.ts';

const CRASH_PAUSE_MS = 5_000;

export type RunDeployment = (deployment: DeploymentRecord, worker: WarmWorker, signal: AbortSignal) => Promise<void>;

interface Running {
  deploymentId: string;
  controller: AbortController;
  done: Promise<void>;
}

export interface BuildQueue {
  /** Looks for queued deployments to start (after a trigger, and when a slot frees up). */
  kick(): void;
  /** Stops a project's running deployment, if any, and waits until it has ended. */
  stopProject(projectId: string, cause: StopCause): Promise<void>;
  /** Whether a deployment is running now (started by a slot). */
  isRunning(deploymentId: string): boolean;
  /** Stops a running deployment (it ends `canceled`); resolves once it has ended. */
  cancel(deploymentId: string): Promise<void>;
  /** Stops every running deployment and the workers. */
  close(): Promise<void>;
}

export function createBuildQueue(store: Store, concurrency: number, sandbox: BuildSandbox, run: RunDeployment): BuildQueue {
  const running = new Map<string, Running>();
  const idleWorkers = Array.from({ length: concurrency }, () => new WarmWorker({ sandbox }));
  const allWorkers = [...idleWorkers];
  let closed = false;
  let kicking = false;
  let kickAgain = false;

  const start = (deployment: DeploymentRecord, worker: WarmWorker) => {
    const controller = new AbortController();
    const done = run(deployment, worker, controller.signal)
      .catch(async (error) => {
        console.error(`deployment ${deployment.id} crashed:`, error);
        // A run that could not even record itself (a store write refused by a full disk) stays
        // queued: it is tried again after a pause, not in a busy loop.
        if (!closed) await new Promise((r) => setTimeout(r, CRASH_PAUSE_MS));
      })
      .finally(() => {
        running.delete(deployment.project_id);
        idleWorkers.push(worker);
        kick();
      });
    running.set(deployment.project_id, { deploymentId: deployment.id, controller, done });
  };

  const fill = async () => {
    const queued = await store.deploymentsWithStatus('queued');
    // Workers load Astro once there is work (a server that never deploys never pays for them);
    // each stays warm afterwards.
    if (queued.length) for (const worker of idleWorkers) worker.warm();
    for (const deployment of queued) {
      if (closed || idleWorkers.length === 0) return;
      if (running.has(deployment.project_id)) continue;
      start(deployment, idleWorkers.pop()!);
    }
  };

  const kick = () => {
    if (closed) return;
    if (kicking) {
      kickAgain = true;
      return;
    }
    kicking = true;
    void (async () => {
      do {
        kickAgain = false;
        await fill().catch((error) => console.error('build queue:', error));
      } while (kickAgain && !closed);
      kicking = false;
    })();
  };

  return {
    kick,
    async stopProject(projectId, cause) {
      const current = running.get(projectId);
      if (!current) return;
      current.controller.abort(cause);
      await current.done;
    },
    isRunning: (deploymentId) => [...running.values()].some((r) => r.deploymentId === deploymentId),
    async cancel(deploymentId) {
      const current = [...running.values()].find((r) => r.deploymentId === deploymentId);
      if (!current) return;
      current.controller.abort('canceled' satisfies StopCause);
      await current.done;
    },
    async close() {
      closed = true;
      const stopping = [...running.values()];
      for (const r of stopping) r.controller.abort('shutdown' satisfies StopCause);
      await Promise.all(stopping.map((r) => r.done));
      await Promise.all(allWorkers.map((w) => w.close()));
    },
  };
}

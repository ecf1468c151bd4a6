// The build queue (docs/decisions.md#job-queue-and-node-roles): the store's `queued` deployments
// are the queue (so it survives a restart and, on PostgreSQL, is shared by every worker node).
// FOLIO_BUILD_CONCURRENCY slots claim them from the store, organizations taking turns and none
// building more than FOLIO_BUILDS_PER_ORG at a time (fair-queue.ts), never two of one project. A
// claim is a lease this process renews while the build runs, and a deployment whose lease ran out
// (its worker died) is ended by any node (recoverDeployments). Each slot has its own warm build
// worker, started in the build sandbox (FOLIO_SANDBOX).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { BuildSandbox } from '../../builder/sandbox.ts';
import { WarmWorker } from '../../builder/warm-worker.ts';
import type { DeploymentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { StopCause } from './runner.ts';

const CRASH_PAUSE_MS = 5_000;
/** The safety net under notifications: the store is asked for work at least this often. */
const POLL_MS = 5_000;

/** This process as a lease holder: readable in the database (host and pid), unique per start. */
export const LEASE_OWNER = `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;

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
  /** Whether a deployment is running now (started by a slot of this process). */
  isRunning(deploymentId: string): boolean;
  /** Stops a running deployment (it ends `canceled`); resolves once it has ended. */
  cancel(deploymentId: string): Promise<void>;
  /**
   * Whether this process still holds its claim on a running deployment (renewing it). When it no
   * longer does, the run is stopped with the cause first, so the runner records nothing over what
   * another node recorded. Throws when the store cannot tell.
   */
  holdsClaim(deploymentId: string): Promise<boolean>;
  /** Stops every running deployment and the workers. */
  close(): Promise<void>;
}

export interface BuildQueueOptions {
  concurrency: number;
  /** Most builds of one organization at a time, over every node (FOLIO_BUILDS_PER_ORG; 0: no limit). */
  buildsPerOrg: number;
  sandbox: BuildSandbox;
  /** How long a claim holds without renewal (FOLIO_BUILD_LEASE_S); renewed every third of it. */
  leaseMs: number;
}

export function createBuildQueue(store: Store, options: BuildQueueOptions, run: RunDeployment): BuildQueue {
  const { concurrency, buildsPerOrg, sandbox, leaseMs } = options;
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
        // A run that could not even record its end (a store write refused by a full disk) keeps
        // its claim until the lease runs out; the pause keeps a broken store from a busy loop.
        if (!closed) await new Promise((r) => setTimeout(r, CRASH_PAUSE_MS));
      })
      .finally(() => {
        // A run's outcome is recorded before its last steps (its log closed, its snapshot moved
        // away), so the project's next deployment may be claimed and started meanwhile: its entry
        // is never this run's to remove.
        if (running.get(deployment.project_id)?.deploymentId === deployment.id) running.delete(deployment.project_id);
        idleWorkers.push(worker);
        kick();
      });
    running.set(deployment.project_id, { deploymentId: deployment.id, controller, done });
  };

  const fill = async () => {
    while (!closed && idleWorkers.length > 0) {
      const deployment = await store.claimDeployment(LEASE_OWNER, leaseMs, buildsPerOrg);
      if (!deployment) return;
      // Workers load Astro once there is work (a server that never deploys never pays for them);
      // each stays warm afterwards.
      for (const worker of idleWorkers) worker.warm();
      if (closed) {
        // Claimed while stopping: left to the lease, so another worker takes it over.
        return;
      }
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

  /**
   * Renews the lease of every running deployment. One this process no longer holds was canceled or
   * deleted on another node, or taken over after a lease ran out (a stall longer than the lease):
   * its build stops, and the cause decides what it records (runner.ts).
   */
  const stopUnheld = async (r: Running) => {
    const current = await store.getDeployment(r.deploymentId).catch(() => undefined);
    const cause: StopCause = !current ? 'deleted' : current.status === 'canceled' ? 'canceled' : 'lease_lost';
    r.controller.abort(cause);
  };

  const renew = async () => {
    await Promise.all([...running.values()].map(async (r) => {
      const held = await store.renewDeploymentLease(r.deploymentId, LEASE_OWNER, leaseMs).catch((error) => {
        console.error(`build queue: renewing the lease of deployment ${r.deploymentId}:`, error);
        return true; // the store did not answer: tried again soon; the lease outlasts two misses
      });
      if (!held && !r.controller.signal.aborted) await stopUnheld(r);
    }));
  };

  const renewTimer = setInterval(() => void renew(), Math.max(100, Math.floor(leaseMs / 3)));
  const pollTimer = setInterval(kick, POLL_MS);
  // Another node queued, canceled or deleted something: look for work and for stops at once.
  const unwatch = store.watchQueue(() => {
    kick();
    void renew();
  });

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
    async holdsClaim(deploymentId) {
      const current = [...running.values()].find((r) => r.deploymentId === deploymentId);
      if (!current || current.controller.signal.aborted) return false;
      if (await store.renewDeploymentLease(deploymentId, LEASE_OWNER, leaseMs)) return true;
      await stopUnheld(current);
      return false;
    },
    async close() {
      closed = true;
      unwatch();
      clearInterval(pollTimer);
      const stopping = [...running.values()];
      for (const r of stopping) r.controller.abort('shutdown' satisfies StopCause);
      await Promise.all(stopping.map((r) => r.done));
      clearInterval(renewTimer);
      await Promise.all(allWorkers.map((w) => w.close()));
    },
  };
}

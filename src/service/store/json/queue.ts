// The JSON store: the build queue (claims and leases).
import { nextTurn, type OrgTurn } from '../../deployments/fair-queue.ts';
import type { DeploymentRecord } from '../records.ts';
import type { QueueStore } from '../store.ts';
import { compareNewestFirst, own, type JsonStoreFile } from './file.ts';

export function jsonQueue(file: JsonStoreFile): QueueStore {
  // Leases live in memory only: one process owns the file, so after a restart no deployment has
  // one, and restart recovery (takeExpiredLeases) ends every deployment left building.
  const leases = new Map<string, { owner: string; expiresAt: number }>();

  return {
    async claimDeployment(owner: string, leaseMs: number, buildsPerOrg = 0): Promise<DeploymentRecord | undefined> {
      // One pass over the deployments (all in memory) gathers each organization's turn; a turn's
      // last start comes from the deployments' started_at, so it survives a restart with them.
      const deployments = Object.values(file.db.data.deployments);
      const orgOf = (d: DeploymentRecord) => own(file.db.data.projects, d.project_id)?.org_id;
      const buildingProjects = new Set(deployments.filter((d) => d.status === 'building').map((d) => d.project_id));
      const turns = new Map<string, OrgTurn>();
      const turnOf = (orgId: string) => {
        let turn = turns.get(orgId);
        if (!turn) turns.set(orgId, (turn = { org_id: orgId, deployment_id: '', created_at: '', building: 0 }));
        return turn;
      };
      for (const d of deployments) {
        const orgId = orgOf(d);
        if (orgId === undefined) continue;
        const turn = turnOf(orgId);
        if (d.status === 'building') turn.building++;
        if (d.started_at && d.started_at > (turn.last_started_at ?? '')) turn.last_started_at = d.started_at;
        if (d.status === 'queued' && !buildingProjects.has(d.project_id) && (!turn.deployment_id || compareNewestFirst(d, { id: turn.deployment_id, created_at: turn.created_at }) > 0)) {
          Object.assign(turn, { deployment_id: d.id, created_at: d.created_at });
        }
      }
      const chosen = nextTurn([...turns.values()].filter((t) => t.deployment_id !== ''), buildsPerOrg);
      if (!chosen) return undefined;
      const next = own(file.db.data.deployments, chosen.deployment_id)!;
      // Checked and changed synchronously: no cancel or second claim can come in between.
      const project = own(file.db.data.projects, next.project_id);
      if (project && next.preview_label === undefined) {
        project.status = 'building';
        file.projectShards.changed(project.id);
      }
      Object.assign(next, { status: 'building', started_at: new Date().toISOString() });
      file.deploymentShards.changed(next.id);
      leases.set(next.id, { owner, expiresAt: Date.now() + leaseMs });
      await file.commit();
      return { ...next };
    },

    async renewDeploymentLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
      const lease = leases.get(id);
      if (own(file.db.data.deployments, id)?.status !== 'building') {
        leases.delete(id);
        return false;
      }
      if (lease?.owner !== owner) return false;
      lease.expiresAt = Date.now() + leaseMs;
      return true;
    },

    async takeExpiredLeases(owner: string, leaseMs: number): Promise<DeploymentRecord[]> {
      const now = Date.now();
      // Leases of deployments that have ended are dropped here, so the map holds only live builds.
      for (const id of leases.keys()) if (own(file.db.data.deployments, id)?.status !== 'building') leases.delete(id);
      const expired = Object.values(file.db.data.deployments).filter((d) => d.status === 'building' && (leases.get(d.id)?.expiresAt ?? 0) < now);
      for (const d of expired) leases.set(d.id, { owner, expiresAt: now + leaseMs });
      return expired.map((d) => ({ ...d }));
    },

    watchQueue(): () => void {
      return () => {}; // one process: its own triggers kick its queue
    },
  };
}

// The JSON store: deployments.
import { FolioError } from '../../errors.ts';
import type { DeploymentChanges, DeploymentRecord, DeploymentStatus, ListPosition, ListSlice } from '../records.ts';
import type { DeploymentStore } from '../store.ts';
import { compareNewestFirst, own, pageOf, type JsonStoreFile } from './file.ts';

export function jsonDeployments(file: JsonStoreFile): DeploymentStore {
  return {
    async queueDeployment(deployment: DeploymentRecord): Promise<{ deployment: DeploymentRecord; created: boolean }> {
      if (!Object.hasOwn(file.db.data.projects, deployment.project_id)) {
        throw new FolioError('not_found', `project ${deployment.project_id} not found`);
      }
      // Checked and inserted synchronously: no other trigger can slip in between.
      // Coalesced per target: production with production, a preview with its own branch.
      const queued = file.deploymentsByProject.get(deployment.project_id)?.find((d) => d.status === 'queued' && d.branch === deployment.branch);
      if (queued) {
        await file.commit(); // the caller may be answering about a deployment still on its way to disk
        return { deployment: { ...queued }, created: false };
      }
      const record = { ...deployment };
      file.db.data.deployments[record.id] = record;
      file.indexDeployment(record);
      file.deploymentShards.added(record.id);
      await file.commit();
      return { deployment: { ...record }, created: true };
    },

    async addDeployment(deployment: DeploymentRecord): Promise<DeploymentRecord> {
      if (!Object.hasOwn(file.db.data.projects, deployment.project_id)) {
        throw new FolioError('not_found', `project ${deployment.project_id} not found`);
      }
      const record = { ...deployment };
      file.db.data.deployments[record.id] = record;
      file.indexDeployment(record);
      file.deploymentShards.added(record.id);
      await file.commit();
      return { ...record };
    },

    async getDeployment(id: string): Promise<DeploymentRecord | undefined> {
      const deployment = own(file.db.data.deployments, id);
      return deployment && { ...deployment };
    },

    async listDeployments(projectId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeploymentRecord>> {
      return pageOf(file.deploymentsByProject.get(projectId) ?? [], limit, after);
    },

    async deploymentsWithStatus(status: DeploymentStatus): Promise<DeploymentRecord[]> {
      return Object.values(file.db.data.deployments)
        .filter((d) => d.status === status)
        .sort((a, b) => -compareNewestFirst(a, b))
        .map((d) => ({ ...d }));
    },

    async updateDeployment(id: string, changes: DeploymentChanges): Promise<DeploymentRecord> {
      const deployment = own(file.db.data.deployments, id);
      if (!deployment) throw new FolioError('not_found', `deployment ${id} not found`);
      Object.assign(deployment, changes);
      file.deploymentShards.changed(id);
      await file.commit();
      return { ...deployment };
    },
  };
}

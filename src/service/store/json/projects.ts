// The JSON store: projects, with their slugs and custom domains.
import { FolioError } from '../../errors.ts';
import type { CustomDomainStatus, ListPosition, ListSlice, ProjectChanges, ProjectRecord } from '../records.ts';
import type { ProjectStore } from '../store.ts';
import { own, pageOf, type JsonStoreFile } from './file.ts';

export function jsonProjects(file: JsonStoreFile): ProjectStore {
  const projects: ProjectStore = {
    async createProject(project: ProjectRecord): Promise<ProjectRecord> {
      // Uniqueness is checked and claimed synchronously, so concurrent creates cannot both win.
      if (file.projectsBySlug.has(project.slug)) throw new FolioError('slug_taken', `slug "${project.slug}" is already taken`);
      file.checkDomainFree(undefined, project.custom_domain, project.custom_domain_status === 'verified');
      const record = { ...project };
      file.db.data.projects[record.id] = record;
      file.indexProject(record);
      file.projectShards.added(record.id);
      await file.commit();
      return { ...record };
    },

    async getProject(id: string): Promise<ProjectRecord | undefined> {
      const project = own(file.db.data.projects, id);
      return project && { ...project };
    },

    async listProjects(orgId: string, limit: number, after?: ListPosition): Promise<ListSlice<ProjectRecord>> {
      return pageOf(file.projectsByOrg.get(orgId) ?? [], limit, after);
    },

    async updateProject(id: string, changes: ProjectChanges): Promise<ProjectRecord> {
      const project = own(file.db.data.projects, id);
      if (!project) throw new FolioError('not_found', `project ${id} not found`);
      const after = <K extends keyof ProjectChanges & keyof ProjectRecord>(field: K) =>
        changes[field] === undefined ? project[field] : (changes[field] ?? undefined);
      file.checkDomainFree(project, after('custom_domain'), after('custom_domain_status') === 'verified');
      file.unindexDomain(project);
      const fields = project as unknown as Record<string, unknown>;
      for (const [field, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        if (value === null) delete fields[field];
        else fields[field] = value;
      }
      file.indexDomain(project);
      file.projectShards.changed(id);
      await file.commit();
      return { ...project };
    },

    async deleteProject(id: string): Promise<void> {
      const project = own(file.db.data.projects, id);
      if (!project) throw new FolioError('not_found', `project ${id} not found`);
      file.unindexProject(project);
      delete file.db.data.projects[id];
      file.projectShards.removed(id);
      for (const deployment of file.deploymentsByProject.get(id) ?? []) {
        delete file.db.data.deployments[deployment.id];
        file.deploymentShards.removed(deployment.id);
      }
      file.deploymentsByProject.delete(id);
      for (const webhook of Object.values(file.db.data.webhooks)) if (webhook.project_id === id) file.dropWebhook(webhook.id);
      await file.commit();
    },

    async findProjectBySlug(slug: string): Promise<ProjectRecord | undefined> {
      return file.projectsBySlug.get(slug);
    },

    async findProjectByDomain(domain: string): Promise<ProjectRecord | undefined> {
      return file.projectsByDomain.get(domain);
    },

    async listProjectsWithDomain(): Promise<ProjectRecord[]> {
      return [...file.projectsWithDomain].map((p) => ({ ...p }));
    },

    async recordDomainCheck(id: string, token: string, status: CustomDomainStatus, checkedAt: string): Promise<ProjectRecord | undefined> {
      const project = own(file.db.data.projects, id);
      if (!project || project.custom_domain_token !== token) return undefined;
      return projects.updateProject(id, { custom_domain_status: status, custom_domain_checked_at: checkedAt });
    },
  };
  return projects;
}

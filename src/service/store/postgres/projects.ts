// The PostgreSQL store: projects, with their slugs and custom domains.
import type pg from 'pg';
import { FolioError } from '../../errors.ts';
import type { CustomDomainStatus, ListPosition, ListSlice, ProjectChanges, ProjectRecord } from '../records.ts';
import type { ProjectStore } from '../store.ts';
import { FOREIGN_KEY_VIOLATION, newestFirst, pgError, PROJECT_FIELDS, projectOf, UNIQUE_VIOLATION, type PostgresDatabase, type Row } from './database.ts';

export function postgresProjects(db: PostgresDatabase): ProjectStore {
  /** The FolioError for a constraint a project write broke; anything else unchanged. */
  function projectConflict(err: unknown, slug: string | undefined, domain: string | null | undefined): unknown {
    const { code, constraint } = pgError(err);
    if (code === UNIQUE_VIOLATION && constraint === 'projects_slug_key') return new FolioError('slug_taken', `slug "${slug}" is already taken`);
    if (code === UNIQUE_VIOLATION && constraint === 'projects_verified_domain') {
      return new FolioError('domain_taken', `custom_domain "${domain}" is already used by another project`);
    }
    if (code === FOREIGN_KEY_VIOLATION) return new FolioError('not_found', 'organization not found');
    return err;
  }

  /** Refuses a change that would make a project claim or verify a domain another project holds. */
  async function checkDomainFree(client: pg.PoolClient, projectId: string | undefined, domain: string, currentDomain: string | undefined, verifying: boolean) {
    const { rows } = await client.query(
      "SELECT id FROM projects WHERE custom_domain = $1 AND custom_domain_status = 'verified' AND id IS DISTINCT FROM $2",
      [domain, projectId ?? null],
    );
    if (rows.length > 0 && (verifying || domain !== currentDomain)) {
      throw new FolioError('domain_taken', `custom_domain "${domain}" is already used by another project`);
    }
  }

  /** Updates a project, if it exists and (given `token`) its domain's token is still `token`. */
  async function updateProjectWhere(id: string, changes: ProjectChanges, token?: string): Promise<ProjectRecord | undefined> {
    const set = PROJECT_FIELDS.filter((field) => changes[field] !== undefined);
    let domain: string | undefined;
    try {
      return await db.transaction(async (client) => {
        const current = (await client.query('SELECT * FROM projects WHERE id = $1 FOR UPDATE', [id])).rows[0] as Row | undefined;
        if (!current || (token !== undefined && current.custom_domain_token !== token)) return undefined;
        const after = <K extends keyof ProjectChanges>(field: K) => (changes[field] === undefined ? current[field] : changes[field]);
        domain = (after('custom_domain') as string | null) ?? undefined;
        if (domain) await checkDomainFree(client, id, domain, (current.custom_domain as string | null) ?? undefined, after('custom_domain_status') === 'verified');
        if (set.length === 0) return projectOf(current);
        const rows = await client.query(
          `UPDATE projects SET ${set.map((field, i) => `${field} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`,
          [id, ...set.map((field) => changes[field])],
        );
        return projectOf(rows.rows[0]);
      });
    } catch (err) {
      throw projectConflict(err, undefined, domain);
    }
  }

  return {
    async createProject(project: ProjectRecord): Promise<ProjectRecord> {
      const columns = Object.keys(project).filter((c) => (project as unknown as Row)[c] !== undefined);
      try {
        return await db.transaction(async (client) => {
          const verifying = project.custom_domain_status === 'verified';
          if (project.custom_domain) await checkDomainFree(client, undefined, project.custom_domain, undefined, verifying);
          const rows = await client.query(
            `INSERT INTO projects (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
            columns.map((c) => (project as unknown as Row)[c]),
          );
          return projectOf(rows.rows[0]);
        });
      } catch (err) {
        throw projectConflict(err, project.slug, project.custom_domain);
      }
    },

    async getProject(id: string): Promise<ProjectRecord | undefined> {
      // Every project route reads its project first: many requests for one project at once cost one
      // statement per round trip, each still started after the request arrived (lanes.ts).
      const row = await db.projectReads(id, 0, async (waiters) => {
        const rows = await db.query('SELECT * FROM projects WHERE id = $1', [id], 'get_project');
        return waiters.map(() => rows[0]);
      });
      return row && projectOf(row);
    },

    async listProjects(orgId: string, limit: number, after?: ListPosition): Promise<ListSlice<ProjectRecord>> {
      return newestFirst(db, { table: 'projects', owner: 'org_id', statement: 'list_projects' }, orgId, limit, after, projectOf);
    },

    async updateProject(id: string, changes: ProjectChanges): Promise<ProjectRecord> {
      const updated = await updateProjectWhere(id, changes);
      if (!updated) throw new FolioError('not_found', `project ${id} not found`);
      return updated;
    },

    async deleteProject(id: string): Promise<void> {
      const rows = await db.query('DELETE FROM projects WHERE id = $1 RETURNING id', [id]);
      if (!rows[0]) throw new FolioError('not_found', `project ${id} not found`);
    },

    async findProjectBySlug(slug: string): Promise<ProjectRecord | undefined> {
      const rows = await db.query('SELECT * FROM projects WHERE slug = $1', [slug], 'project_by_slug');
      return rows[0] && projectOf(rows[0]);
    },

    async findProjectByDomain(domain: string): Promise<ProjectRecord | undefined> {
      const rows = await db.query("SELECT * FROM projects WHERE custom_domain = $1 AND custom_domain_status = 'verified'", [domain], 'project_by_domain');
      return rows[0] && projectOf(rows[0]);
    },

    async listProjectsWithDomain(): Promise<ProjectRecord[]> {
      return (await db.query('SELECT * FROM projects WHERE custom_domain IS NOT NULL ORDER BY created_at, id')).map(projectOf);
    },

    async recordDomainCheck(id: string, token: string, status: CustomDomainStatus, checkedAt: string): Promise<ProjectRecord | undefined> {
      return updateProjectWhere(id, { custom_domain_status: status, custom_domain_checked_at: checkedAt }, token);
    },
  };
}

// Projects (CONTRACT §6): the domain operations behind the /v1/projects endpoints.
import { randomUUID } from 'node:crypto';
import type { Config } from './config.ts';
import { DomainError } from './errors.ts';
import { RESERVED_SLUGS, type CreateProjectInput, type UpdateProjectInput } from './project-rules.ts';
import type { ListPosition, ProjectChanges, ProjectRecord, Store } from './store.ts';

/** A project as the API shows it: spec 2.1 plus `url`; optional fields absent when unset. */
export interface Project {
  id: string;
  name: string;
  slug: string;
  status: ProjectRecord['status'];
  created_at: string;
  source_repo?: string;
  custom_domain?: string;
  source_branch?: string;
  last_deploy_at?: string;
  /** The project's pages may hold code (React components, imports of code files). */
  allow_code: boolean;
  url: string;
}

export interface ProjectList {
  data: Project[];
  next_cursor: string | null;
}

export interface ProjectsService {
  create(orgId: string, input: CreateProjectInput): Promise<Project>;
  list(orgId: string, limit: number, cursor?: string): Promise<ProjectList>;
  get(orgId: string, id: string): Promise<Project>;
  update(orgId: string, id: string, input: UpdateProjectInput): Promise<Project>;
  delete(orgId: string, id: string): Promise<void>;
  /** The project whose site a request Host names (`{slug}.{service_domain}` or a custom domain). */
  findByHost(host: string): Promise<ProjectRecord | undefined>;
  /** A project's `url`: its live site address. */
  urlOf(project: ProjectRecord): string;
}

export interface ProjectHooks {
  /**
   * Called after a project is connected to a repository (at create, or by PATCH setting or
   * changing source_repo). The deployments issue fills this in to queue the first deployment.
   */
  onRepositoryConnected?(project: ProjectRecord): void | Promise<void>;
  /** Called after a project is removed from the store, to remove its files and caches. */
  onProjectDeleted?(project: ProjectRecord): void | Promise<void>;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/;

export function encodeCursor(pos: ListPosition): string {
  return Buffer.from(`${pos.created_at}_${pos.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new DomainError('invalid_request', 'cursor is not valid: pass the next_cursor of a previous page');
  return { created_at: match[1], id: match[2] };
}

/**
 * Whether a project's builds run its code: it enabled code and the operator allows code at all
 * (FOLIO_ALLOW_CODE). A project keeps its allow_code while the operator forbids code; its builds,
 * page checks and site serving treat it as false until the operator allows code again.
 */
export function codeAllowed(project: { allow_code?: boolean }, config: Pick<Config, 'allowCode'>): boolean {
  return project.allow_code === true && config.allowCode;
}

export function createProjectsService(store: Store, config: Config, hooks: ProjectHooks = {}): ProjectsService {
  const domain = config.serviceDomain;
  const defaultPort = config.publicScheme === 'https' ? 443 : 80;
  const port = config.publicPort ?? config.port;
  const portSuffix = port === defaultPort ? '' : `:${port}`;
  const siteSuffix = `.${domain}`;

  const urlOf = (p: ProjectRecord) => `${config.publicScheme}://${p.slug}.${domain}${portSuffix}/`;

  const view = (p: ProjectRecord): Project => {
    const project: Project = { id: p.id, name: p.name, slug: p.slug, status: p.status, created_at: p.created_at } as Project;
    if (p.source_repo !== undefined) project.source_repo = p.source_repo;
    if (p.custom_domain !== undefined) project.custom_domain = p.custom_domain;
    if (p.source_branch !== undefined) project.source_branch = p.source_branch;
    if (p.last_deploy_at !== undefined) project.last_deploy_at = p.last_deploy_at;
    project.allow_code = p.allow_code === true;
    project.url = urlOf(p);
    return project;
  };

  const checkCustomDomain = (host: string | null | undefined): void => {
    if (host && (host === domain || host.endsWith(siteSuffix))) {
      throw new DomainError('invalid_request', `custom_domain must not be the service domain ${domain} or under it`);
    }
  };

  const checkAllowCode = (value: boolean | undefined): void => {
    if (value === true && !config.allowCode) {
      throw new DomainError('invalid_request', 'allow_code cannot be true: the operator of this Folio server has disabled code in projects (FOLIO_ALLOW_CODE=false)');
    }
  };

  const owned = async (orgId: string, id: string): Promise<ProjectRecord> => {
    const project = await store.getProject(id);
    // Another org's project is "not found": existence must not leak.
    if (!project || project.org_id !== orgId) throw new DomainError('not_found', `project ${id} not found`);
    return project;
  };

  const connected = async (project: ProjectRecord): Promise<void> => {
    await hooks.onRepositoryConnected?.(project);
  };

  return {
    async create(orgId, input) {
      if (RESERVED_SLUGS.has(input.slug)) throw new DomainError('slug_taken', `slug "${input.slug}" is reserved`);
      checkCustomDomain(input.custom_domain);
      checkAllowCode(input.allow_code);
      const record: ProjectRecord = {
        id: randomUUID(),
        org_id: orgId,
        name: input.name,
        slug: input.slug,
        status: 'pending',
        created_at: new Date().toISOString(),
      };
      if (input.source_repo !== undefined) record.source_repo = input.source_repo;
      if (input.source_branch !== undefined) record.source_branch = input.source_branch;
      if (input.custom_domain !== undefined) record.custom_domain = input.custom_domain;
      if (input.allow_code) record.allow_code = true;
      const project = await store.createProject(record);
      if (project.source_repo) await connected(project);
      return view(project);
    },

    async list(orgId, limit, cursor) {
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const page = await store.listProjects(orgId, limit, after);
      const last = page.items[page.items.length - 1];
      return { data: page.items.map(view), next_cursor: page.hasMore && last ? encodeCursor(last) : null };
    },

    async get(orgId, id) {
      return view(await owned(orgId, id));
    },

    async update(orgId, id, input) {
      const before = await owned(orgId, id);
      checkCustomDomain(input.custom_domain);
      checkAllowCode(input.allow_code);
      const changes: ProjectChanges = {
        name: input.name,
        source_repo: input.source_repo,
        source_branch: input.source_branch,
        custom_domain: input.custom_domain,
        allow_code: input.allow_code,
      };
      const project = await store.updateProject(id, changes);
      if (project.source_repo && project.source_repo !== before.source_repo) await connected(project);
      return view(project);
    },

    async delete(orgId, id) {
      const project = await owned(orgId, id);
      await store.deleteProject(id);
      await hooks.onProjectDeleted?.(project);
    },

    async findByHost(host) {
      if (host.endsWith(siteSuffix)) {
        const slug = host.slice(0, -siteSuffix.length);
        if (!slug.includes('.')) return store.findProjectBySlug(slug);
      }
      return store.findProjectByDomain(host);
    },

    urlOf,
  };
}

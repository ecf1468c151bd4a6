// Projects (docs/decisions.md#projects): the domain operations behind the /v1/projects endpoints.
import { randomUUID } from 'node:crypto';
import { publicOrigin, type Config } from './config.ts';
import { newVerificationToken, verificationRecord, type VerificationRecord } from './custom-domains.ts';
import { FolioError } from './errors.ts';
import { hostnameProblem, RESERVED_SLUGS, type CreateProjectInput, type UpdateProjectInput } from './project-rules.ts';
import type { CustomDomainStatus, ListPosition, ProjectChanges, ProjectRecord } from './store/records.ts';
import type { Store } from './store/store.ts';

/**
 * A project as the API shows it: docs/decisions.md#projects plus `url`, and with a custom domain its verification;
 * optional fields absent when unset.
 */
export interface Project {
  id: string;
  name: string;
  slug: string;
  status: ProjectRecord['status'];
  created_at: string;
  source_repo?: string;
  custom_domain?: string;
  custom_domain_status?: CustomDomainStatus;
  custom_domain_verification?: VerificationRecord;
  custom_domain_checked_at?: string;
  source_branch?: string;
  last_deploy_at?: string;
  /** The project's pages may hold code (React components, imports of code files). */
  allow_code: boolean;
  /** Pushes to other branches (matching `preview_branches`, when set) build previews. */
  previews: boolean;
  preview_branches?: string;
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
  /** Looks the project's verification record up now and returns the project with the outcome. */
  verifyCustomDomain(orgId: string, id: string): Promise<Project>;
  /** The project whose site a request Host names (`{slug}.{service_domain}` or a verified custom domain). */
  findByHost(host: string): Promise<ProjectRecord | undefined>;
  /**
   * The project and branch label of a preview host `{label}--{slug}.{service_domain}`, for a project
   * with previews on. A project whose whole slug is the label (made before slugs lost `--`) wins:
   * findByHost answers it first.
   */
  findPreviewByHost(host: string): Promise<{ project: ProjectRecord; label: string } | undefined>;
  /**
   * Whether a host may get a TLS certificate: an existing project's `{slug}.{service_domain}`, a
   * verified custom domain, a preview that is live (`{label}--{slug}.{service_domain}`), or a host
   * the API is served on.
   */
  tlsAllowed(host: string): Promise<boolean>;
  /** A project's `url`: its live site address. */
  urlOf(project: ProjectRecord): string;
  /** The address of a project's preview of a branch label: `{label}--{slug}.{domain}`. */
  previewUrlOf(project: ProjectRecord, label: string): string;
  /** An address on the API host (the service domain), such as a push webhook's delivery URL. */
  serviceUrl(pathname: string): string;
}

export interface ProjectHooks {
  /**
   * Called after a project is connected to a repository (at create, or by PATCH setting or
   * changing source_repo). The deployments issue fills this in to queue the first deployment.
   */
  onRepositoryConnected?(project: ProjectRecord): void | Promise<void>;
  /** Called after PATCH removed a project's repository (source_repo null), to remove what only its syncs used. */
  onRepositoryDisconnected?(project: ProjectRecord): void | Promise<void>;
  /** Called after a project is removed from the store, to remove its files and caches. */
  onProjectDeleted?(project: ProjectRecord): void | Promise<void>;
  /** Called after a project's custom domain is set or changed, to start looking its record up. */
  onCustomDomainSet?(projectId: string): void;
  /** Looks a project's custom domain up in DNS now and records the outcome (verifyCustomDomain). */
  checkCustomDomain?(projectId: string): Promise<void>;
  /** Whether the project's preview of a branch label has a live build (absent: none has). */
  previewServed?(projectId: string, label: string): Promise<boolean>;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/;

export function encodeListCursor(pos: ListPosition): string {
  return Buffer.from(`${pos.created_at}_${pos.id}`).toString('base64url');
}

export function decodeListCursor(cursor: string): ListPosition {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new FolioError('invalid_request', 'cursor is not valid: pass the next_cursor of a previous page');
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
  const siteSuffix = `.${domain}`;
  const apiHosts = new Set(config.apiHosts);
  /** Hosts that always answer the API: the service domain, its reserved labels, FOLIO_API_HOSTS. */
  const isApiHost = (host: string) =>
    host === domain || apiHosts.has(host) || (host.endsWith(siteSuffix) && RESERVED_SLUGS.has(host.slice(0, -siteSuffix.length)));

  const urlOf = (p: ProjectRecord) => `${publicOrigin(config, `${p.slug}.${domain}`)}/`;

  const view = (p: ProjectRecord): Project => {
    const project: Project = { id: p.id, name: p.name, slug: p.slug, status: p.status, created_at: p.created_at } as Project;
    if (p.source_repo !== undefined) project.source_repo = p.source_repo;
    if (p.custom_domain !== undefined) {
      project.custom_domain = p.custom_domain;
      project.custom_domain_status = p.custom_domain_status ?? 'pending';
      if (p.custom_domain_token) project.custom_domain_verification = verificationRecord(p.custom_domain, p.custom_domain_token);
      if (p.custom_domain_checked_at) project.custom_domain_checked_at = p.custom_domain_checked_at;
    }
    if (p.source_branch !== undefined) project.source_branch = p.source_branch;
    if (p.last_deploy_at !== undefined) project.last_deploy_at = p.last_deploy_at;
    project.allow_code = p.allow_code === true;
    project.previews = p.previews === true;
    if (p.preview_branches !== undefined) project.preview_branches = p.preview_branches;
    project.url = urlOf(p);
    return project;
  };

  const checkCustomDomain = (host: string | null | undefined): void => {
    if (host && (host === domain || host.endsWith(siteSuffix))) {
      throw new FolioError('invalid_request', `custom_domain must not be the service domain ${domain} or under it`);
    }
    if (host && apiHosts.has(host)) {
      throw new FolioError('domain_taken', `custom_domain "${host}" is a host this Folio server answers its API on; choose another`);
    }
  };

  const checkAllowCode = (value: boolean | undefined): void => {
    if (value === true && !config.allowCode) {
      throw new FolioError('invalid_request', 'allow_code cannot be true: the operator of this Folio server has disabled code in projects (FOLIO_ALLOW_CODE=false)');
    }
  };

  /** The stored fields of a newly set domain (a fresh token, not yet verified) or of a removed one. */
  const domainFields = (host: string | null): ProjectChanges =>
    host === null
      ? { custom_domain: null, custom_domain_status: null, custom_domain_token: null, custom_domain_checked_at: null }
      : { custom_domain: host, custom_domain_status: 'pending', custom_domain_token: newVerificationToken(), custom_domain_checked_at: null };

  const checkSoon = (project: ProjectRecord): void => hooks.onCustomDomainSet?.(project.id);

  const owned = async (orgId: string, id: string): Promise<ProjectRecord> => {
    const project = await store.getProject(id);
    // Another org's project is "not found": existence must not leak.
    if (!project || project.org_id !== orgId) throw new FolioError('not_found', `project ${id} not found`);
    return project;
  };

  async function findByHost(host: string): Promise<ProjectRecord | undefined> {
    if (host.endsWith(siteSuffix)) {
      const slug = host.slice(0, -siteSuffix.length);
      if (!slug.includes('.')) return store.findProjectBySlug(slug);
    }
    // A host no custom domain can be (an IP address, a single label such as a node's name) is not
    // looked up: with PostgreSQL that is a round trip saved on every request addressed that way.
    if (hostnameProblem(host)) return undefined;
    return store.findProjectByDomain(host);
  }

  async function findPreviewByHost(host: string): Promise<{ project: ProjectRecord; label: string } | undefined> {
    if (!host.endsWith(siteSuffix)) return undefined;
    const name = host.slice(0, -siteSuffix.length);
    const split = name.indexOf('--');
    if (name.includes('.') || split <= 0) return undefined;
    const project = await store.findProjectBySlug(name.slice(split + 2));
    return project?.previews ? { project, label: name.slice(0, split) } : undefined;
  }

  const connected = async (project: ProjectRecord): Promise<void> => {
    await hooks.onRepositoryConnected?.(project);
  };

  return {
    async create(orgId, input) {
      if (RESERVED_SLUGS.has(input.slug)) throw new FolioError('slug_taken', `slug "${input.slug}" is reserved`);
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
      if (input.custom_domain !== undefined) Object.assign(record, domainFields(input.custom_domain));
      if (input.allow_code) record.allow_code = true;
      if (input.previews) record.previews = true;
      if (input.preview_branches !== undefined) record.preview_branches = input.preview_branches;
      const project = await store.createProject(record);
      if (project.source_repo) await connected(project);
      if (project.custom_domain) checkSoon(project);
      return view(project);
    },

    async list(orgId, limit, cursor) {
      const after = cursor === undefined ? undefined : decodeListCursor(cursor);
      const page = await store.listProjects(orgId, limit, after);
      const last = page.items[page.items.length - 1];
      return { data: page.items.map(view), next_cursor: page.hasMore && last ? encodeListCursor(last) : null };
    },

    async get(orgId, id) {
      return view(await owned(orgId, id));
    },

    async update(orgId, id, input) {
      const before = await owned(orgId, id);
      checkCustomDomain(input.custom_domain);
      checkAllowCode(input.allow_code);
      const newDomain = input.custom_domain !== undefined && input.custom_domain !== before.custom_domain;
      const changes: ProjectChanges = {
        name: input.name,
        source_repo: input.source_repo,
        source_branch: input.source_branch,
        // The same domain again keeps its token and status.
        ...(newDomain ? domainFields(input.custom_domain!) : {}),
        allow_code: input.allow_code,
        previews: input.previews,
        preview_branches: input.preview_branches,
      };
      const project = await store.updateProject(id, changes);
      if (project.source_repo && project.source_repo !== before.source_repo) await connected(project);
      if (!project.source_repo && before.source_repo) await hooks.onRepositoryDisconnected?.(project);
      if (newDomain && project.custom_domain) checkSoon(project);
      return view(project);
    },

    async delete(orgId, id) {
      const project = await owned(orgId, id);
      await store.deleteProject(id);
      await hooks.onProjectDeleted?.(project);
    },

    async verifyCustomDomain(orgId, id) {
      const project = await owned(orgId, id);
      if (!project.custom_domain) {
        throw new FolioError('invalid_request', `project ${id} has no custom_domain to verify: set one with PATCH /v1/projects/${id} first`);
      }
      await hooks.checkCustomDomain?.(id);
      return view(await owned(orgId, id));
    },

    findByHost,
    findPreviewByHost,

    async tlsAllowed(host) {
      if (isApiHost(host) || (await findByHost(host)) !== undefined) return true;
      // Only a preview that serves a build: any label of a project with previews on names a host,
      // and a certificate for each would let anyone spend the CA's rate limits of the service domain.
      const preview = await findPreviewByHost(host);
      return !!preview && ((await hooks.previewServed?.(preview.project.id, preview.label)) ?? false);
    },

    urlOf,
    previewUrlOf: (p, label) => `${publicOrigin(config, `${label}--${p.slug}.${domain}`)}/`,
    serviceUrl: (pathname) => `${publicOrigin(config, domain)}${pathname}`,
  };
}

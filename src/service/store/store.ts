// The store: every record of the service behind one interface, made of one part per entity.
// Two backends implement it, each in its own folder: json/ (one lowdb file in the data dir, the
// default) and postgres/ (FOLIO_DATABASE_URL, shared by several nodes). Which one runs is chosen in
// service/storage.ts. docs/architecture.md, "The store".
import type { Plan } from '../config.ts';
import type {
  ApiKeyRecord, CustomDomainStatus, DeliveryChanges, DeliveryRecord, DeploymentChanges, DeploymentRecord, DeploymentStatus,
  ListPosition, ListSlice, Org, ProjectChanges, ProjectRecord, SessionRecord, UserChanges, UserRecord, WebhookRecord,
} from './records.ts';

/** Push delivery ids remembered per project, and deliveries kept per webhook. */
export const HOOK_DELIVERIES_KEPT = 200;
export const DELIVERIES_KEPT = 200;

/** Organizations and their API keys. */
export interface OrgStore {
  createOrg(org: Org): Promise<Org>;
  listOrgs(): Promise<Org[]>;
  getOrg(id: string): Promise<Org | undefined>;
  findOrg(nameOrId: string): Promise<Org | undefined>;
  setOrgPlan(id: string, plan: Plan): Promise<Org>;

  createKey(key: ApiKeyRecord): Promise<ApiKeyRecord>;
  listKeys(orgId?: string): Promise<ApiKeyRecord[]>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /**
   * A key with its org's plan, read together (one query in PostgreSQL): what every API request
   * needs to authenticate and to be rate limited. Callers must not modify the key.
   */
  findKeyWithPlan(hash: string): Promise<{ key: ApiKeyRecord; plan: Plan } | undefined>;
  revokeKey(id: string, at: string): Promise<ApiKeyRecord>;
  /** Records a key's use. Not durable on its own: losing a last_used_at in a crash is acceptable. */
  touchKey(id: string, at: string): void;
}

/** Projects, with their slugs and custom domains. */
export interface ProjectStore {
  createProject(project: ProjectRecord): Promise<ProjectRecord>;
  getProject(id: string): Promise<ProjectRecord | undefined>;
  listProjects(orgId: string, limit: number, after?: ListPosition): Promise<ListSlice<ProjectRecord>>;
  updateProject(id: string, changes: ProjectChanges): Promise<ProjectRecord>;
  deleteProject(id: string): Promise<void>;
  /** The project of a slug (lower-case), if any. */
  findProjectBySlug(slug: string): Promise<ProjectRecord | undefined>;
  /**
   * The project holding a custom domain (lower-case): the one whose domain is verified. Several
   * projects may claim a domain while unverified, so a claim cannot lock its owner out; a claim
   * of a domain another project holds, or verifying one, is refused with `domain_taken`.
   */
  findProjectByDomain(domain: string): Promise<ProjectRecord | undefined>;
  /** Every project with a custom domain, whatever its status. */
  listProjectsWithDomain(): Promise<ProjectRecord[]>;
  /**
   * Records the outcome of a DNS check, unless the project's domain changed since the check
   * began (its token is then another); undefined in that case or when the project is gone.
   */
  recordDomainCheck(id: string, token: string, status: CustomDomainStatus, checkedAt: string): Promise<ProjectRecord | undefined>;
}

/** Deployments of every project. */
export interface DeploymentStore {
  /**
   * Queues a deployment unless the project already has one queued: then that one is returned
   * (`created: false`). Atomic, so concurrent triggers coalesce into one deployment.
   */
  queueDeployment(deployment: DeploymentRecord): Promise<{ deployment: DeploymentRecord; created: boolean }>;
  getDeployment(id: string): Promise<DeploymentRecord | undefined>;
  /** Adds a deployment as it is (a promote, which never waits in the queue). */
  addDeployment(deployment: DeploymentRecord): Promise<DeploymentRecord>;
  /** A project's deployments, newest first. */
  listDeployments(projectId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeploymentRecord>>;
  /** Deployments in a status across all projects, oldest first (the build queue, restart recovery). */
  deploymentsWithStatus(status: DeploymentStatus): Promise<DeploymentRecord[]>;
  updateDeployment(id: string, changes: DeploymentChanges): Promise<DeploymentRecord>;
}

/** Console users and their sessions. */
export interface AccountStore {
  createUser(user: UserRecord): Promise<UserRecord>;
  getUser(id: string): Promise<UserRecord | undefined>;
  /** The user of an email (lower-case), if any. */
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  /** The user whose invite token has this hash, if any (expired or not). */
  findUserByInviteHash(hash: string): Promise<UserRecord | undefined>;
  /** Every user, or the members of one org. */
  listUsers(orgId?: string): Promise<UserRecord[]>;
  updateUser(id: string, changes: UserChanges): Promise<UserRecord>;
  /** Removes a user and every session of theirs. */
  deleteUser(id: string): Promise<void>;

  createSession(session: SessionRecord): Promise<SessionRecord>;
  findSessionByHash(hash: string): Promise<SessionRecord | undefined>;
  /** Switches the organization a session shows. */
  setSessionOrg(id: string, orgId: string): Promise<SessionRecord>;
  /** Records a session's use. Not durable on its own, like touchKey. */
  touchSession(id: string, at: string): void;
  /** Ends one session (no error when it is already gone). */
  deleteSession(id: string): Promise<void>;
  /** Ends every session of a user, except `exceptId`. */
  deleteUserSessions(userId: string, exceptId?: string): Promise<void>;
}

/** Continuous deployment (docs/decisions.md#continuous-deployment): event webhooks, their deliveries, push deliveries seen. */
export interface WebhookStore {
  /**
   * Records a push delivery id of a project; false when it was seen before (a replay). The newest
   * HOOK_DELIVERIES_KEPT ids per project are remembered.
   */
  rememberHookDelivery(projectId: string, deliveryId: string): Promise<boolean>;
  createWebhook(webhook: WebhookRecord): Promise<WebhookRecord>;
  getWebhook(id: string): Promise<WebhookRecord | undefined>;
  /** A project's webhooks, oldest first. */
  listWebhooks(projectId: string): Promise<WebhookRecord[]>;
  /** Removes a webhook and its deliveries. */
  deleteWebhook(id: string): Promise<void>;
  createDelivery(delivery: DeliveryRecord): Promise<DeliveryRecord>;
  updateDelivery(id: string, changes: DeliveryChanges): Promise<DeliveryRecord | undefined>;
  /** A webhook's deliveries, newest first. */
  listDeliveries(webhookId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeliveryRecord>>;
  /** Deliveries still to be sent, every project. */
  pendingDeliveries(): Promise<DeliveryRecord[]>;
}

/** The build queue's claims and leases (docs/decisions.md#job-queue-and-node-roles). */
export interface QueueStore {
  /**
   * Starts a queued deployment whose project has none building, the organizations taking turns
   * (`nextTurn`; none past `buildsPerOrg` building, 0: no limit): it becomes `building` (with
   * `started_at`; its project too, unless it is a preview) in one step, held by `owner` for
   * `leaseMs`. Undefined when no deployment can start now.
   */
  claimDeployment(owner: string, leaseMs: number, buildsPerOrg?: number): Promise<DeploymentRecord | undefined>;
  /** Extends `owner`'s lease on a building deployment; false when it no longer holds it (canceled, deleted, taken over). */
  renewDeploymentLease(id: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Building deployments whose lease ran out (their worker died), now held by `owner`, who ends them. */
  takeExpiredLeases(owner: string, leaseMs: number): Promise<DeploymentRecord[]>;
  /** Calls `listener` when another process changed the queue (PostgreSQL's LISTEN); returns a function that stops it. */
  watchQueue(listener: () => void): () => void;
}

export interface Store extends OrgStore, ProjectStore, DeploymentStore, AccountStore, WebhookStore, QueueStore {
  /** True when the store file can be read (health check). */
  isHealthy(): Promise<boolean>;
  /** Writes pending changes (including lazy ones) and stops background work. */
  close(): Promise<void>;
}

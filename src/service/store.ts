// The store: every record of the service, behind one small interface (the future PostgreSQL seam).
// The embedded implementation keeps everything in memory with indexes and persists the whole
// state to one lowdb JSON file with group commit.
import { constants } from 'node:fs';
import { access, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import type { Plan } from './config.ts';
import { DamagedFileError, DurableJsonFile, parseJsonFile } from './durable-json-file.ts';
import { asStorageError, FolioError, type DeploymentErrorCode } from './errors.ts';
import { nextTurn, type OrgTurn } from './deployments/fair-queue.ts';
import type { ProgressReport } from '../site/build-progress.ts';
import { RecordShards } from './record-shards.ts';
import { BACKUP_DIR, newestGoodBackup, StoreBackups, type StoreBackup } from './store-backups.ts';
import type { Scope } from './scopes.ts';

export interface Org {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  org_id: string;
  name: string;
  /** The first 12 characters of the key, for listing. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A person's place in an organization: owners also manage API keys and members. */
export type OrgRole = 'owner' | 'member';

export interface Membership {
  org_id: string;
  role: OrgRole;
}

/** A person who signs in to the web console (docs/decisions.md#console). */
export interface UserRecord {
  id: string;
  /** Lower-case; unique. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64url); absent until the user chose a password. */
  password_hash?: string;
  memberships: Membership[];
  /** The one-time link to choose a password: SHA-256 of its token, and when it expires. */
  invite?: UserInvite;
  created_at: string;
}

/**
 * An open one-time link. `joins`: organizations the user enters only when the link is used (an
 * existing account added to another org: docs/decisions.md#invites-prove-the-address).
 */
export interface UserInvite {
  hash: string;
  expires_at: string;
  joins?: Membership[];
}

/** Fields a user update may set; `null` removes an optional field. */
export interface UserChanges {
  password_hash?: string;
  memberships?: Membership[];
  invite?: UserInvite | null;
}

/** A signed-in console session; the cookie holds a secret whose SHA-256 is `hash`. */
export interface SessionRecord {
  id: string;
  hash: string;
  user_id: string;
  /** The organization the console shows (the org switcher changes it). */
  org_id: string;
  /** The per-session token every state-changing console request must carry. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
}

export type ProjectStatus = 'pending' | 'building' | 'active' | 'failed';
/** `pending`: not yet seen in DNS; `verified`: found at the last check; `failed`: gone since. */
export type CustomDomainStatus = 'pending' | 'verified' | 'failed';

export interface ProjectRecord {
  id: string;
  org_id: string;
  name: string;
  slug: string;
  status: ProjectStatus;
  created_at: string;
  source_repo?: string;
  source_branch?: string;
  custom_domain?: string;
  /** Set with custom_domain: its verification state and the token of its TXT record. */
  custom_domain_status?: CustomDomainStatus;
  custom_domain_token?: string;
  /** When DNS last gave a definite answer about the record. */
  custom_domain_checked_at?: string;
  last_deploy_at?: string;
  /** The project's content may hold code (absent means false). */
  allow_code?: boolean;
  /** Continuous deployment: the push webhook's secret (kept to verify signatures; see docs/decisions.md#continuous-deployment). */
  webhook_secret?: string;
  /** Pushes to other branches build previews (absent means false), for branches matching `preview_branches`. */
  previews?: boolean;
  preview_branches?: string;
  /** The newest push delivery ids received (HOOK_DELIVERIES_KEPT): replays are ignored. */
  hook_deliveries?: string[];
}

/** Fields a project update may set; `null` removes an optional field. */
export interface ProjectChanges {
  name?: string;
  status?: ProjectStatus;
  source_repo?: string | null;
  source_branch?: string | null;
  custom_domain?: string | null;
  custom_domain_status?: CustomDomainStatus | null;
  custom_domain_token?: string | null;
  custom_domain_checked_at?: string | null;
  last_deploy_at?: string | null;
  allow_code?: boolean;
  webhook_secret?: string | null;
  previews?: boolean;
  preview_branches?: string | null;
}

export type DeploymentStatus = 'queued' | 'building' | 'succeeded' | 'failed' | 'canceled';
// Why a deployment failed: a code of the one error table (src/service/errors.ts).
export type { DeploymentErrorCode };

export interface DeploymentRecord {
  id: string;
  project_id: string;
  status: DeploymentStatus;
  trigger: 'manual' | 'connect' | 'push' | 'poll' | 'promote';
  created_at: string;
  started_at?: string;
  finished_at?: string;
  source_branch?: string;
  commit_sha?: string;
  page_count?: number;
  /** Warnings of its build (each a line of its log): what builds, but not as written. */
  warnings?: number;
  error?: { code: DeploymentErrorCode; message: string };
  /** A preview deployment's branch (production deployments have none). */
  branch?: string;
  /** A preview's host label: `{preview_label}--{slug}.{domain}`. */
  preview_label?: string;
  /** A promote: the earlier deployment whose build it made live again. */
  promoted_from?: string;
  /** Asked to build every page, never reusing the previous build (docs/decisions.md#fast-redeploys). */
  full_build?: boolean;
  /** The build's latest progress report, from Folio's own counters (src/site/build-progress.ts); shown only while building. */
  progress?: DeploymentProgress;
}

/** Where a running build is: its phase, and pages rendered of the total once the content check counted them. */
export type DeploymentProgress = Omit<ProgressReport, 'seconds'>;

/** An event subscription of a project (docs/decisions.md#continuous-deployment). */
export interface WebhookRecord {
  id: string;
  project_id: string;
  url: string;
  events: WebhookEvent[];
  /** Signs every delivery: kept as is, since signing needs it. */
  secret: string;
  created_at: string;
}

export type WebhookEvent = 'deployment.started' | 'deployment.succeeded' | 'deployment.failed';

/** One event sent (or to be sent) to one webhook, with its retry schedule. */
export interface DeliveryRecord {
  id: string;
  webhook_id: string;
  project_id: string;
  event: WebhookEvent;
  /** The exact body sent (signed as is). */
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  created_at: string;
  next_attempt_at?: string;
  last_attempt_at?: string;
  response_code?: number;
  last_error?: string;
}

export type DeliveryChanges = Partial<Pick<DeliveryRecord, 'status' | 'attempts' | 'next_attempt_at' | 'last_attempt_at' | 'response_code' | 'last_error'>>;

export type DeploymentChanges = Partial<Omit<DeploymentRecord, 'id' | 'project_id' | 'trigger' | 'created_at'>>;

/** Position in a newest-first list: items strictly older than this one come next. */
export interface ListPosition {
  created_at: string;
  id: string;
}

export interface ListSlice<T> {
  items: T[];
  hasMore: boolean;
}

export interface Store {
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

  // Continuous deployment (docs/decisions.md#continuous-deployment).
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

  // The build queue's claims and leases (docs/decisions.md#job-queue-and-node-roles).
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

  /** True when the store file can be read (health check). */
  isHealthy(): Promise<boolean>;
  /** Writes pending changes (including lazy ones) and stops background work. */
  close(): Promise<void>;
}

interface StoreData {
  version: 1;
  orgs: Record<string, Org>;
  keys: Record<string, ApiKeyRecord>;
  projects: Record<string, ProjectRecord>;
  deployments: Record<string, DeploymentRecord>;
  users: Record<string, UserRecord>;
  sessions: Record<string, SessionRecord>;
  webhooks: Record<string, WebhookRecord>;
  deliveries: Record<string, DeliveryRecord>;
}

const emptyData = (): StoreData => ({ version: 1, orgs: {}, keys: {}, projects: {}, deployments: {}, users: {}, sessions: {}, webhooks: {}, deliveries: {} });

/** Push delivery ids remembered per project, and deliveries kept per webhook. */
export const HOOK_DELIVERIES_KEPT = 200;
export const DELIVERIES_KEPT = 200;

export const STORE_FILE = 'folio.json';

/** Newest first: later created_at first, ties broken by id (descending). */
function compareNewestFirst(a: ListPosition, b: ListPosition): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Index of the first element of a newest-first array that comes after `pos`. */
function firstAfter(list: ListPosition[], pos: ListPosition): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareNewestFirst(list[mid], pos) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Up to `limit` copies of the records of a newest-first list that come after `after`. */
function pageOf<T extends ListPosition>(list: T[], limit: number, after?: ListPosition): ListSlice<T> {
  const start = after ? firstAfter(list, after) : 0;
  return { items: list.slice(start, start + limit).map((r) => ({ ...r })), hasMore: start + limit < list.length };
}

/** The record stored under `id`, never one inherited from Object.prototype (`__proto__`, …). */
function own<T>(records: Record<string, T>, id: string): T | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined;
}

const LAZY_FLUSH_MS = 30_000;

/** The store file cannot be read: the server must not start on it (content/operating/storage-and-recovery.mdx, "A damaged store file"). */
export class StoreDamagedError extends Error {
  override name = 'StoreDamagedError';
  file: string;
  /** The newest backup holding a whole store, if any. */
  backup?: StoreBackup;
  constructor(file: string, reason: string, backup?: StoreBackup) {
    super(`the store file ${file} is damaged: ${reason}`);
    this.file = file;
    this.backup = backup;
  }

  /** What the operator does about it. */
  get advice(): string {
    return this.backup
      ? `The newest good backup is ${this.backup.file}, taken at ${this.backup.takenAt.toISOString()}. Restore it with: npm run admin -- store restore (writes acknowledged after that time are lost; the command names the window).`
      : `There is no good backup in ${path.join(path.dirname(this.file), BACKUP_DIR)}: restore the file from your own backups.`;
  }
}

/** The store's data from its file's text; a file that is not a whole store is damaged. */
function parseStore(file: string, text: string): StoreData {
  const data = parseJsonFile<Partial<StoreData>>(file, text);
  if (typeof data !== 'object' || data === null || data.version !== 1) {
    throw new DamagedFileError(file, 'it is not a Folio store (no "version": 1)');
  }
  return { ...emptyData(), ...data };
}

/** Every record of the JSON store in `dataDir` (for `admin db import`); empty lists when there is no file. */
export async function readStoreRecords(dataDir: string): Promise<StoreRecords> {
  const file = path.join(dataDir, STORE_FILE);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  let data = emptyData();
  try {
    if (text !== undefined) data = parseStore(file, text);
  } catch (err) {
    if (!(err instanceof DamagedFileError)) throw err;
    throw new StoreDamagedError(file, err.message.slice(file.length + ' is damaged: '.length), await newestGoodBackup(dataDir));
  }
  return {
    orgs: Object.values(data.orgs),
    keys: Object.values(data.keys),
    projects: Object.values(data.projects),
    deployments: Object.values(data.deployments),
    users: Object.values(data.users),
    sessions: Object.values(data.sessions),
    webhooks: Object.values(data.webhooks),
    deliveries: Object.values(data.deliveries),
  };
}

export interface StoreRecords {
  orgs: Org[];
  keys: ApiKeyRecord[];
  projects: ProjectRecord[];
  deployments: DeploymentRecord[];
  users: UserRecord[];
  sessions: SessionRecord[];
  /** Continuous deployment: event webhooks and their deliveries (pending ones keep their schedule). */
  webhooks: WebhookRecord[];
  deliveries: DeliveryRecord[];
}

/** Creates and loads the embedded store in `dataDir`. Throws StoreDamagedError for an unreadable file. */
export async function openStore(dataDir: string): Promise<Store> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const shards = { projects: new RecordShards(), deployments: new RecordShards(), deliveries: new RecordShards() };
  // Projects and deployments are the big collections: serialised incrementally, as bytes that are
  // only copied into the file's buffer. The rest is small.
  const serialize = (data: StoreData) => {
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(data)) {
      parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}${JSON.stringify(name)}:`));
      const sharded = name === 'projects' || name === 'deployments' || name === 'deliveries' ? shards[name] : undefined;
      if (sharded) parts.push(...sharded.serializeBytes(value));
      else parts.push(Buffer.from(JSON.stringify(value)));
    }
    parts.push(Buffer.from(parts.length === 0 ? '{}' : '}'));
    return Buffer.concat(parts);
  };
  const file = new DurableJsonFile<StoreData>(path.join(dataDir, STORE_FILE), serialize);
  const text = await readFile(file.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  let data = emptyData();
  try {
    if (text !== undefined) data = parseStore(file.file, text);
  } catch (err) {
    if (!(err instanceof DamagedFileError)) throw err;
    const backup = await newestGoodBackup(dataDir);
    throw new StoreDamagedError(file.file, err.message.slice(file.file.length + ' is damaged: '.length), backup && { file: backup.file, takenAt: backup.takenAt });
  }
  const backups = new StoreBackups(dataDir);
  await backups.opened(text);
  // The text last written whole: what the store goes back to after a failed write.
  let durable: string | Buffer | undefined = text;
  file.onWritten = (written) => {
    durable = written;
    backups.written(written);
  };
  const durableData = () => (durable === undefined ? emptyData() : parseStore(file.file, durable.toString('utf8')));
  const db = new Low<StoreData>(file, data);
  return new JsonFileStore(db, file, shards.projects, shards.deployments, backups, durableData, shards.deliveries);
}

class JsonFileStore implements Store {
  private db: Low<StoreData>;
  private file: DurableJsonFile<StoreData>;
  /** Must hear of every change to a project, or the file would keep its old JSON. */
  private projectShards: RecordShards;
  /** The same for deployments. */
  private deploymentShards: RecordShards;
  /** And for event deliveries (continuous deployment), the one growing collection of it. */
  private deliveryShards: RecordShards;
  private keysByHash = new Map<string, ApiKeyRecord>();
  private orgsByName = new Map<string, Org>();
  private projectsBySlug = new Map<string, ProjectRecord>();
  /** Verified custom domains and the project holding each. */
  private projectsByDomain = new Map<string, ProjectRecord>();
  private projectsWithDomain = new Set<ProjectRecord>();
  /** Each org's projects, newest first. */
  private projectsByOrg = new Map<string, ProjectRecord[]>();
  /** Each project's deployments, newest first. */
  private deploymentsByProject = new Map<string, DeploymentRecord[]>();
  private usersByEmail = new Map<string, UserRecord>();
  private usersByInvite = new Map<string, UserRecord>();
  private sessionsByHash = new Map<string, SessionRecord>();

  // Group commit: while one file write is in flight, later changes wait and share the next write.
  private writing = false;
  private nextBatch: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  private keysTouched = false;
  private sessionsTouched = false;
  private lazyTimer: NodeJS.Timeout;

  private backups: StoreBackups;
  /** The data as last written whole to the file. */
  private durableData: () => StoreData;

  constructor(
    db: Low<StoreData>,
    file: DurableJsonFile<StoreData>,
    projectShards: RecordShards,
    deploymentShards: RecordShards,
    backups: StoreBackups,
    durableData: () => StoreData,
    deliveryShards: RecordShards,
  ) {
    this.deliveryShards = deliveryShards;
    this.db = db;
    this.file = file;
    this.projectShards = projectShards;
    this.deploymentShards = deploymentShards;
    this.backups = backups;
    this.durableData = durableData;
    this.index();
    this.lazyTimer = setInterval(() => {
      if (this.keysTouched || this.sessionsTouched) this.commit().catch(() => {});
    }, LAZY_FLUSH_MS);
    this.lazyTimer.unref();
  }

  /** Builds every index (and the shards) from db.data. */
  private index(): void {
    for (const map of [this.keysByHash, this.orgsByName, this.projectsBySlug, this.projectsByDomain, this.projectsByOrg, this.deploymentsByProject]) map.clear();
    this.projectsWithDomain.clear();
    this.projectShards.clear();
    this.deploymentShards.clear();
    this.deliveryShards.clear();
    for (const id of Object.keys(this.db.data.deliveries)) this.deliveryShards.added(id);
    const { orgs, keys, projects, deployments } = this.db.data;
    for (const org of Object.values(orgs)) this.orgsByName.set(org.name, org);
    for (const key of Object.values(keys)) this.keysByHash.set(key.hash, key);
    for (const project of Object.values(projects)) {
      this.indexProject(project);
      this.projectShards.added(project.id);
    }
    for (const deployment of Object.values(deployments)) {
      this.indexDeployment(deployment);
      this.deploymentShards.added(deployment.id);
    }
    this.indexAccounts();
  }

  /** Builds the indexes of users and sessions from db.data. */
  private indexAccounts(): void {
    for (const map of [this.usersByEmail, this.usersByInvite, this.sessionsByHash]) map.clear();
    for (const user of Object.values(this.db.data.users)) {
      this.usersByEmail.set(user.email, user);
      if (user.invite) this.usersByInvite.set(user.invite.hash, user);
    }
    for (const session of Object.values(this.db.data.sessions)) this.sessionsByHash.set(session.hash, session);
  }

  /**
   * After a failed write, memory is ahead of the disk: it goes back to what the file holds (the
   * text last written whole), so a change whose caller was told it failed never appears later.
   * Synchronous: no change can slip in meanwhile.
   */
  private returnToDisk(): void {
    this.db.data = this.durableData();
    this.index();
  }

  /** Resolves once every change made before the call is on disk. */
  private commit(): Promise<void> {
    if (!this.nextBatch) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.nextBatch = { promise, resolve, reject };
    }
    const { promise } = this.nextBatch;
    if (!this.writing) this.writeBatch();
    return promise;
  }

  private writeBatch(): void {
    const batch = this.nextBatch;
    if (!batch) return;
    this.nextBatch = null;
    this.writing = true;
    this.keysTouched = false;
    this.sessionsTouched = false;
    // Low.write() serialises synchronously before its first await, so the snapshot contains
    // exactly the changes made so far; anything later goes into the next batch.
    this.db.write().then(batch.resolve, (err: unknown) => {
      // The next batch's changes were made on top of this one's: both are undone and refused.
      const next = this.nextBatch;
      this.nextBatch = null;
      this.returnToDisk();
      const error = asStorageError(err, 'the change');
      batch.reject(error);
      next?.reject(error);
    }).finally(() => {
      this.writing = false;
      this.writeBatch();
    });
  }

  private indexDomain(project: ProjectRecord): void {
    if (!project.custom_domain) return;
    this.projectsWithDomain.add(project);
    if (project.custom_domain_status === 'verified') this.projectsByDomain.set(project.custom_domain, project);
  }

  private unindexDomain(project: ProjectRecord): void {
    this.projectsWithDomain.delete(project);
    if (project.custom_domain && this.projectsByDomain.get(project.custom_domain) === project) {
      this.projectsByDomain.delete(project.custom_domain);
    }
  }

  /** Refuses a change that would make `project` claim or verify a domain another project holds. */
  private checkDomainFree(project: ProjectRecord | undefined, domain: string | undefined, verifying: boolean): void {
    const holder = domain === undefined ? undefined : this.projectsByDomain.get(domain);
    if (!holder || holder === project) return;
    if (verifying || domain !== project?.custom_domain) {
      throw new FolioError('domain_taken', `custom_domain "${domain}" is already used by another project`);
    }
  }

  private indexProject(project: ProjectRecord): void {
    this.projectsBySlug.set(project.slug, project);
    this.indexDomain(project);
    let list = this.projectsByOrg.get(project.org_id);
    if (!list) this.projectsByOrg.set(project.org_id, (list = []));
    list.splice(firstAfter(list, project), 0, project);
  }

  private unindexProject(project: ProjectRecord): void {
    this.projectsBySlug.delete(project.slug);
    this.unindexDomain(project);
    const list = this.projectsByOrg.get(project.org_id) ?? [];
    const at = firstAfter(list, project) - 1;
    if (list[at] === project) list.splice(at, 1);
  }

  private indexDeployment(deployment: DeploymentRecord): void {
    let list = this.deploymentsByProject.get(deployment.project_id);
    if (!list) this.deploymentsByProject.set(deployment.project_id, (list = []));
    list.splice(firstAfter(list, deployment), 0, deployment);
  }

  async createOrg(org: Org): Promise<Org> {
    if (this.orgsByName.has(org.name)) throw new FolioError('name_taken', `an organization named "${org.name}" already exists`);
    const record = { ...org };
    this.db.data.orgs[record.id] = record;
    this.orgsByName.set(record.name, record);
    await this.commit();
    return { ...record };
  }

  async listOrgs(): Promise<Org[]> {
    return Object.values(this.db.data.orgs).map((o) => ({ ...o }));
  }

  async getOrg(id: string): Promise<Org | undefined> {
    const org = this.db.data.orgs[id];
    return org && { ...org };
  }

  async findOrg(nameOrId: string): Promise<Org | undefined> {
    const org = own(this.db.data.orgs, nameOrId) ?? this.orgsByName.get(nameOrId);
    return org && { ...org };
  }

  async setOrgPlan(id: string, plan: Plan): Promise<Org> {
    const org = this.db.data.orgs[id];
    if (!org) throw new FolioError('not_found', `organization ${id} not found`);
    org.plan = plan;
    await this.commit();
    return { ...org };
  }

  async createKey(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    if (!this.db.data.orgs[key.org_id]) throw new FolioError('not_found', `organization ${key.org_id} not found`);
    const record = { ...key, scopes: [...key.scopes] };
    this.db.data.keys[record.id] = record;
    this.keysByHash.set(record.hash, record);
    await this.commit();
    return { ...record };
  }

  async listKeys(orgId?: string): Promise<ApiKeyRecord[]> {
    return Object.values(this.db.data.keys)
      .filter((k) => !orgId || k.org_id === orgId)
      .map((k) => ({ ...k }));
  }

  // Hot path (every request): returns the live record, which callers must not modify.
  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.keysByHash.get(hash);
  }

  async findKeyWithPlan(hash: string): Promise<{ key: ApiKeyRecord; plan: Plan } | undefined> {
    const key = this.keysByHash.get(hash);
    return key && { key, plan: this.db.data.orgs[key.org_id]?.plan ?? 'free' };
  }

  async revokeKey(id: string, at: string): Promise<ApiKeyRecord> {
    const key = own(this.db.data.keys, id);
    if (!key) throw new FolioError('not_found', `key ${id} not found`);
    key.revoked_at ??= at;
    await this.commit();
    return { ...key };
  }

  touchKey(id: string, at: string): void {
    const key = this.db.data.keys[id];
    if (!key) return;
    key.last_used_at = at;
    this.keysTouched = true;
  }

  async createProject(project: ProjectRecord): Promise<ProjectRecord> {
    // Uniqueness is checked and claimed synchronously, so concurrent creates cannot both win.
    if (this.projectsBySlug.has(project.slug)) throw new FolioError('slug_taken', `slug "${project.slug}" is already taken`);
    this.checkDomainFree(undefined, project.custom_domain, project.custom_domain_status === 'verified');
    const record = { ...project };
    this.db.data.projects[record.id] = record;
    this.indexProject(record);
    this.projectShards.added(record.id);
    await this.commit();
    return { ...record };
  }

  async getProject(id: string): Promise<ProjectRecord | undefined> {
    const project = own(this.db.data.projects, id);
    return project && { ...project };
  }

  async listProjects(orgId: string, limit: number, after?: ListPosition): Promise<ListSlice<ProjectRecord>> {
    return pageOf(this.projectsByOrg.get(orgId) ?? [], limit, after);
  }

  async updateProject(id: string, changes: ProjectChanges): Promise<ProjectRecord> {
    const project = own(this.db.data.projects, id);
    if (!project) throw new FolioError('not_found', `project ${id} not found`);
    const after = <K extends keyof ProjectChanges & keyof ProjectRecord>(field: K) =>
      changes[field] === undefined ? project[field] : (changes[field] ?? undefined);
    this.checkDomainFree(project, after('custom_domain'), after('custom_domain_status') === 'verified');
    this.unindexDomain(project);
    const fields = project as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (value === null) delete fields[field];
      else fields[field] = value;
    }
    this.indexDomain(project);
    this.projectShards.changed(id);
    await this.commit();
    return { ...project };
  }

  async deleteProject(id: string): Promise<void> {
    const project = own(this.db.data.projects, id);
    if (!project) throw new FolioError('not_found', `project ${id} not found`);
    this.unindexProject(project);
    delete this.db.data.projects[id];
    this.projectShards.removed(id);
    for (const deployment of this.deploymentsByProject.get(id) ?? []) {
      delete this.db.data.deployments[deployment.id];
      this.deploymentShards.removed(deployment.id);
    }
    this.deploymentsByProject.delete(id);
    for (const webhook of Object.values(this.db.data.webhooks)) if (webhook.project_id === id) this.dropWebhook(webhook.id);
    await this.commit();
  }

  async findProjectBySlug(slug: string): Promise<ProjectRecord | undefined> {
    return this.projectsBySlug.get(slug);
  }

  async findProjectByDomain(domain: string): Promise<ProjectRecord | undefined> {
    return this.projectsByDomain.get(domain);
  }

  async listProjectsWithDomain(): Promise<ProjectRecord[]> {
    return [...this.projectsWithDomain].map((p) => ({ ...p }));
  }

  async recordDomainCheck(id: string, token: string, status: CustomDomainStatus, checkedAt: string): Promise<ProjectRecord | undefined> {
    const project = own(this.db.data.projects, id);
    if (!project || project.custom_domain_token !== token) return undefined;
    return this.updateProject(id, { custom_domain_status: status, custom_domain_checked_at: checkedAt });
  }

  async queueDeployment(deployment: DeploymentRecord): Promise<{ deployment: DeploymentRecord; created: boolean }> {
    if (!Object.hasOwn(this.db.data.projects, deployment.project_id)) {
      throw new FolioError('not_found', `project ${deployment.project_id} not found`);
    }
    // Checked and inserted synchronously: no other trigger can slip in between.
    // Coalesced per target: production with production, a preview with its own branch.
    const queued = this.deploymentsByProject.get(deployment.project_id)?.find((d) => d.status === 'queued' && d.branch === deployment.branch);
    if (queued) {
      await this.commit(); // the caller may be answering about a deployment still on its way to disk
      return { deployment: { ...queued }, created: false };
    }
    const record = { ...deployment };
    this.db.data.deployments[record.id] = record;
    this.indexDeployment(record);
    this.deploymentShards.added(record.id);
    await this.commit();
    return { deployment: { ...record }, created: true };
  }

  async addDeployment(deployment: DeploymentRecord): Promise<DeploymentRecord> {
    if (!Object.hasOwn(this.db.data.projects, deployment.project_id)) {
      throw new FolioError('not_found', `project ${deployment.project_id} not found`);
    }
    const record = { ...deployment };
    this.db.data.deployments[record.id] = record;
    this.indexDeployment(record);
    this.deploymentShards.added(record.id);
    await this.commit();
    return { ...record };
  }

  async getDeployment(id: string): Promise<DeploymentRecord | undefined> {
    const deployment = own(this.db.data.deployments, id);
    return deployment && { ...deployment };
  }

  async listDeployments(projectId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeploymentRecord>> {
    return pageOf(this.deploymentsByProject.get(projectId) ?? [], limit, after);
  }

  async deploymentsWithStatus(status: DeploymentStatus): Promise<DeploymentRecord[]> {
    return Object.values(this.db.data.deployments)
      .filter((d) => d.status === status)
      .sort((a, b) => -compareNewestFirst(a, b))
      .map((d) => ({ ...d }));
  }

  async updateDeployment(id: string, changes: DeploymentChanges): Promise<DeploymentRecord> {
    const deployment = own(this.db.data.deployments, id);
    if (!deployment) throw new FolioError('not_found', `deployment ${id} not found`);
    Object.assign(deployment, changes);
    this.deploymentShards.changed(id);
    await this.commit();
    return { ...deployment };
  }

  async createUser(user: UserRecord): Promise<UserRecord> {
    if (this.usersByEmail.has(user.email)) throw new FolioError('name_taken', `a user with the email "${user.email}" already exists`);
    const record = structuredClone(user);
    this.db.data.users[record.id] = record;
    this.usersByEmail.set(record.email, record);
    if (record.invite) this.usersByInvite.set(record.invite.hash, record);
    await this.commit();
    return structuredClone(record);
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    const user = own(this.db.data.users, id);
    return user && structuredClone(user);
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const user = this.usersByEmail.get(email);
    return user && structuredClone(user);
  }

  async findUserByInviteHash(hash: string): Promise<UserRecord | undefined> {
    const user = this.usersByInvite.get(hash);
    return user && structuredClone(user);
  }

  async listUsers(orgId?: string): Promise<UserRecord[]> {
    return Object.values(this.db.data.users)
      .filter((u) => !orgId || u.memberships.some((m) => m.org_id === orgId))
      .sort((a, b) => (a.email < b.email ? -1 : 1))
      .map((u) => structuredClone(u));
  }

  async updateUser(id: string, changes: UserChanges): Promise<UserRecord> {
    const user = own(this.db.data.users, id);
    if (!user) throw new FolioError('not_found', `user ${id} not found`);
    if (changes.password_hash !== undefined) user.password_hash = changes.password_hash;
    if (changes.memberships !== undefined) user.memberships = structuredClone(changes.memberships);
    if (changes.invite !== undefined) {
      if (user.invite) this.usersByInvite.delete(user.invite.hash);
      if (changes.invite === null) delete user.invite;
      else this.usersByInvite.set((user.invite = structuredClone(changes.invite)).hash, user);
    }
    await this.commit();
    return structuredClone(user);
  }

  async deleteUser(id: string): Promise<void> {
    const user = own(this.db.data.users, id);
    if (!user) throw new FolioError('not_found', `user ${id} not found`);
    this.usersByEmail.delete(user.email);
    if (user.invite) this.usersByInvite.delete(user.invite.hash);
    delete this.db.data.users[id];
    this.dropSessions((s) => s.user_id === id);
    await this.commit();
  }

  async createSession(session: SessionRecord): Promise<SessionRecord> {
    if (!own(this.db.data.users, session.user_id)) throw new FolioError('not_found', `user ${session.user_id} not found`);
    const record = { ...session };
    this.db.data.sessions[record.id] = record;
    this.sessionsByHash.set(record.hash, record);
    await this.commit();
    return { ...record };
  }

  async findSessionByHash(hash: string): Promise<SessionRecord | undefined> {
    const session = this.sessionsByHash.get(hash);
    return session && { ...session };
  }

  async setSessionOrg(id: string, orgId: string): Promise<SessionRecord> {
    const session = own(this.db.data.sessions, id);
    if (!session) throw new FolioError('not_found', `session ${id} not found`);
    session.org_id = orgId;
    await this.commit();
    return { ...session };
  }

  touchSession(id: string, at: string): void {
    const session = own(this.db.data.sessions, id);
    if (!session) return;
    session.last_seen_at = at;
    this.sessionsTouched = true;
  }

  async deleteSession(id: string): Promise<void> {
    this.dropSessions((s) => s.id === id);
    await this.commit();
  }

  async deleteUserSessions(userId: string, exceptId?: string): Promise<void> {
    this.dropSessions((s) => s.user_id === userId && s.id !== exceptId);
    await this.commit();
  }

  private dropSessions(which: (session: SessionRecord) => boolean): void {
    for (const session of Object.values(this.db.data.sessions)) {
      if (!which(session)) continue;
      this.sessionsByHash.delete(session.hash);
      delete this.db.data.sessions[session.id];
    }
  }

  async rememberHookDelivery(projectId: string, deliveryId: string): Promise<boolean> {
    if (!Object.hasOwn(this.db.data.projects, projectId)) throw new FolioError('not_found', `project ${projectId} not found`);
    // Checked and recorded synchronously: two copies of one delivery cannot both pass. Kept on the
    // project record, so a write re-serialises only its shard.
    const project = this.db.data.projects[projectId];
    const seen = (project.hook_deliveries ??= []);
    if (seen.includes(deliveryId)) return false;
    seen.push(deliveryId);
    if (seen.length > HOOK_DELIVERIES_KEPT) seen.splice(0, seen.length - HOOK_DELIVERIES_KEPT);
    this.projectShards.changed(projectId);
    await this.commit();
    return true;
  }

  async createWebhook(webhook: WebhookRecord): Promise<WebhookRecord> {
    if (!Object.hasOwn(this.db.data.projects, webhook.project_id)) throw new FolioError('not_found', `project ${webhook.project_id} not found`);
    const record = { ...webhook, events: [...webhook.events] };
    this.db.data.webhooks[record.id] = record;
    await this.commit();
    return { ...record };
  }

  async getWebhook(id: string): Promise<WebhookRecord | undefined> {
    const webhook = own(this.db.data.webhooks, id);
    return webhook && { ...webhook };
  }

  async listWebhooks(projectId: string): Promise<WebhookRecord[]> {
    return Object.values(this.db.data.webhooks)
      .filter((w) => w.project_id === projectId)
      .sort((a, b) => -compareNewestFirst(a, b))
      .map((w) => ({ ...w }));
  }

  private dropWebhook(id: string): void {
    delete this.db.data.webhooks[id];
    for (const delivery of Object.values(this.db.data.deliveries)) {
      if (delivery.webhook_id !== id) continue;
      delete this.db.data.deliveries[delivery.id];
      this.deliveryShards.removed(delivery.id);
    }
  }

  async deleteWebhook(id: string): Promise<void> {
    if (!own(this.db.data.webhooks, id)) throw new FolioError('not_found', `webhook ${id} not found`);
    this.dropWebhook(id);
    await this.commit();
  }

  async createDelivery(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    if (!own(this.db.data.webhooks, delivery.webhook_id)) throw new FolioError('not_found', `webhook ${delivery.webhook_id} not found`);
    const record = { ...delivery };
    this.db.data.deliveries[record.id] = record;
    this.deliveryShards.added(record.id);
    // Bounded history: the oldest finished deliveries of the webhook go first.
    const finished = Object.values(this.db.data.deliveries)
      .filter((d) => d.webhook_id === delivery.webhook_id)
      .sort(compareNewestFirst)
      .slice(DELIVERIES_KEPT)
      .filter((d) => d.status !== 'pending');
    for (const old of finished) {
      delete this.db.data.deliveries[old.id];
      this.deliveryShards.removed(old.id);
    }
    await this.commit();
    return { ...record };
  }

  async updateDelivery(id: string, changes: DeliveryChanges): Promise<DeliveryRecord | undefined> {
    const delivery = own(this.db.data.deliveries, id);
    if (!delivery) return undefined;
    Object.assign(delivery, changes);
    this.deliveryShards.changed(id);
    await this.commit();
    return { ...delivery };
  }

  async listDeliveries(webhookId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeliveryRecord>> {
    const list = Object.values(this.db.data.deliveries).filter((d) => d.webhook_id === webhookId).sort(compareNewestFirst);
    return pageOf(list, limit, after);
  }

  async pendingDeliveries(): Promise<DeliveryRecord[]> {
    return Object.values(this.db.data.deliveries)
      .filter((d) => d.status === 'pending')
      .map((d) => ({ ...d }));
  }

  // Leases live in memory only: one process owns the file, so after a restart no deployment has
  // one, and restart recovery (takeExpiredLeases) ends every deployment left building.
  private leases = new Map<string, { owner: string; expiresAt: number }>();

  async claimDeployment(owner: string, leaseMs: number, buildsPerOrg = 0): Promise<DeploymentRecord | undefined> {
    // One pass over the deployments (all in memory) gathers each organization's turn; a turn's
    // last start comes from the deployments' started_at, so it survives a restart with them.
    const deployments = Object.values(this.db.data.deployments);
    const orgOf = (d: DeploymentRecord) => own(this.db.data.projects, d.project_id)?.org_id;
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
    const next = own(this.db.data.deployments, chosen.deployment_id)!;
    // Checked and changed synchronously: no cancel or second claim can come in between.
    const project = own(this.db.data.projects, next.project_id);
    if (project && next.preview_label === undefined) {
      project.status = 'building';
      this.projectShards.changed(project.id);
    }
    Object.assign(next, { status: 'building', started_at: new Date().toISOString() });
    this.deploymentShards.changed(next.id);
    this.leases.set(next.id, { owner, expiresAt: Date.now() + leaseMs });
    await this.commit();
    return { ...next };
  }

  async renewDeploymentLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const lease = this.leases.get(id);
    if (own(this.db.data.deployments, id)?.status !== 'building') {
      this.leases.delete(id);
      return false;
    }
    if (lease?.owner !== owner) return false;
    lease.expiresAt = Date.now() + leaseMs;
    return true;
  }

  async takeExpiredLeases(owner: string, leaseMs: number): Promise<DeploymentRecord[]> {
    const now = Date.now();
    // Leases of deployments that have ended are dropped here, so the map holds only live builds.
    for (const id of this.leases.keys()) if (own(this.db.data.deployments, id)?.status !== 'building') this.leases.delete(id);
    const expired = Object.values(this.db.data.deployments).filter((d) => d.status === 'building' && (this.leases.get(d.id)?.expiresAt ?? 0) < now);
    for (const d of expired) this.leases.set(d.id, { owner, expiresAt: now + leaseMs });
    return expired.map((d) => ({ ...d }));
  }

  watchQueue(): () => void {
    return () => {}; // one process: its own triggers kick its queue
  }

  async isHealthy(): Promise<boolean> {
    try {
      await access(this.file.file, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.lazyTimer);
    if (this.keysTouched || this.sessionsTouched || this.writing || this.nextBatch) await this.commit();
    await this.backups.close();
  }
}

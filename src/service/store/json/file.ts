// The JSON store's file: every record in memory with its indexes, persisted whole to one lowdb
// JSON file with group commit. The entity modules beside it (orgs.ts, projects.ts, …) read and
// change the records through it; index.ts opens the file and joins them into one Store.
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Low } from 'lowdb';
import { DamagedFileError, parseJsonFile, type DurableJsonFile } from '../../durable-json-file.ts';
import { asStorageError, FolioError } from '../../errors.ts';
import type { RecordShards } from '../../record-shards.ts';
import { BACKUP_DIR, newestGoodBackup, type StoreBackup, type StoreBackups } from '../../store-backups.ts';
import type {
  ApiKeyRecord, DeliveryRecord, DeploymentRecord, ListPosition, ListSlice, Org, ProjectRecord, SessionRecord, StoreRecords, UserRecord, WebhookRecord,
} from '../records.ts';

export interface StoreData {
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

export const emptyData = (): StoreData => ({ version: 1, orgs: {}, keys: {}, projects: {}, deployments: {}, users: {}, sessions: {}, webhooks: {}, deliveries: {} });

export const STORE_FILE = 'folio.json';

/** Newest first: later created_at first, ties broken by id (descending). */
export function compareNewestFirst(a: ListPosition, b: ListPosition): number {
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
export function pageOf<T extends ListPosition>(list: T[], limit: number, after?: ListPosition): ListSlice<T> {
  const start = after ? firstAfter(list, after) : 0;
  return { items: list.slice(start, start + limit).map((r) => ({ ...r })), hasMore: start + limit < list.length };
}

/** The record stored under `id`, never one inherited from Object.prototype (`__proto__`, …). */
export function own<T>(records: Record<string, T>, id: string): T | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined;
}

export const LAZY_FLUSH_MS = 30_000;

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
export function parseStore(file: string, text: string): StoreData {
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

export class JsonStoreFile {
  db: Low<StoreData>;
  private file: DurableJsonFile<StoreData>;
  /** Must hear of every change to a project, or the file would keep its old JSON. */
  projectShards: RecordShards;
  /** The same for deployments. */
  deploymentShards: RecordShards;
  /** And for event deliveries (continuous deployment), the one growing collection of it. */
  deliveryShards: RecordShards;
  keysByHash = new Map<string, ApiKeyRecord>();
  orgsByName = new Map<string, Org>();
  projectsBySlug = new Map<string, ProjectRecord>();
  /** Verified custom domains and the project holding each. */
  projectsByDomain = new Map<string, ProjectRecord>();
  projectsWithDomain = new Set<ProjectRecord>();
  /** Each org's projects, newest first. */
  projectsByOrg = new Map<string, ProjectRecord[]>();
  /** Each project's deployments, newest first. */
  deploymentsByProject = new Map<string, DeploymentRecord[]>();
  usersByEmail = new Map<string, UserRecord>();
  usersByInvite = new Map<string, UserRecord>();
  sessionsByHash = new Map<string, SessionRecord>();

  // Group commit: while one file write is in flight, later changes wait and share the next write.
  private writing = false;
  private nextBatch: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  keysTouched = false;
  sessionsTouched = false;
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
  commit(): Promise<void> {
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

  indexDomain(project: ProjectRecord): void {
    if (!project.custom_domain) return;
    this.projectsWithDomain.add(project);
    if (project.custom_domain_status === 'verified') this.projectsByDomain.set(project.custom_domain, project);
  }

  unindexDomain(project: ProjectRecord): void {
    this.projectsWithDomain.delete(project);
    if (project.custom_domain && this.projectsByDomain.get(project.custom_domain) === project) {
      this.projectsByDomain.delete(project.custom_domain);
    }
  }

  /** Refuses a change that would make `project` claim or verify a domain another project holds. */
  checkDomainFree(project: ProjectRecord | undefined, domain: string | undefined, verifying: boolean): void {
    const holder = domain === undefined ? undefined : this.projectsByDomain.get(domain);
    if (!holder || holder === project) return;
    if (verifying || domain !== project?.custom_domain) {
      throw new FolioError('domain_taken', `custom_domain "${domain}" is already used by another project`);
    }
  }

  indexProject(project: ProjectRecord): void {
    this.projectsBySlug.set(project.slug, project);
    this.indexDomain(project);
    let list = this.projectsByOrg.get(project.org_id);
    if (!list) this.projectsByOrg.set(project.org_id, (list = []));
    list.splice(firstAfter(list, project), 0, project);
  }

  unindexProject(project: ProjectRecord): void {
    this.projectsBySlug.delete(project.slug);
    this.unindexDomain(project);
    const list = this.projectsByOrg.get(project.org_id) ?? [];
    const at = firstAfter(list, project) - 1;
    if (list[at] === project) list.splice(at, 1);
  }

  indexDeployment(deployment: DeploymentRecord): void {
    let list = this.deploymentsByProject.get(deployment.project_id);
    if (!list) this.deploymentsByProject.set(deployment.project_id, (list = []));
    list.splice(firstAfter(list, deployment), 0, deployment);
  }


  dropSessions(which: (session: SessionRecord) => boolean): void {
    for (const session of Object.values(this.db.data.sessions)) {
      if (!which(session)) continue;
      this.sessionsByHash.delete(session.hash);
      delete this.db.data.sessions[session.id];
    }
  }


  dropWebhook(id: string): void {
    delete this.db.data.webhooks[id];
    for (const delivery of Object.values(this.db.data.deliveries)) {
      if (delivery.webhook_id !== id) continue;
      delete this.db.data.deliveries[delivery.id];
      this.deliveryShards.removed(delivery.id);
    }
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

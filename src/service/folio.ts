// The running service's domain objects, created once by the server and handed to the API
// endpoints (through Astro's `locals`), so the API has no state of its own.
import { orgBucket, type UsageMinute } from './usage-history.ts';
import { createDiskBuildStorage } from './builds/disk.ts';
import type { BuildStorage } from './builds/storage.ts';
import type { Config, Plan } from './config.ts';
import { createDiskSpace, storageProblem } from './disk-space.ts';
import { consoleOrigin, createAccounts, type Accounts } from './accounts.ts';
import { runAdminCommand, type AdminCommand, type AdminResult } from './admin-commands.ts';
import { createDomainVerifier, type DomainVerifier } from './custom-domains.ts';
import { createEventsService, type EventsService } from './deployments/events.ts';
import { createDeploymentsService, type DeploymentsService } from './deployments/service.ts';
import { hashKey, looksLikeKey } from './keys.ts';
import { createPagesService, type PagesService } from './pages/service.ts';
import { createSiteFilesService, type SiteFilesService } from './pages/site-files.ts';
import { removeProjectFiles } from './project-files.ts';
import { localContent, type ProjectContent } from './project-content.ts';
import { createProjectsService, type ProjectHooks, type ProjectsService } from './projects.ts';
import { createMemoryRateLimiter, type RateLimitDecision, type RateLimiter } from './rate-limiter.ts';
import type { Scope } from './scopes.ts';
import type { Store } from './store/store.ts';
import { closeContentChecks } from '../site/content-check/check-pool.ts';

/** Who is calling: the org and scopes of a valid, unrevoked key. */
export interface Principal {
  orgId: string;
  keyId: string;
  scopes: readonly Scope[];
  /** The org's plan, read with the key on this request, so a plan change applies at once. */
  plan: Plan;
}

export interface Folio {
  config: Config;
  store: Store;
  /** Where builds are kept and which is live: the data dir, or object storage (builds/). */
  builds: BuildStorage;
  projects: ProjectsService;
  pages: PagesService;
  /** docs.json and snippets of API-managed projects (pages/site-files.ts). */
  siteFiles: SiteFilesService;
  deployments: DeploymentsService;
  /** Event webhooks of projects (deployment.started, …) and their deliveries. */
  webhooks: EventsService;
  customDomains: DomainVerifier;
  /** Console users, passwords and sessions (docs/decisions.md#console). */
  accounts: Accounts;
  /** An org's rate limit and its use in the current window, without counting a request. */
  rateUsage(orgId: string): Promise<RateLimitDecision>;
  /** API requests per minute of an org over the last hour, counted by every node sharing the rate limiter. */
  usageHistory(orgId: string): Promise<UsageMinute[]>;
  /** The principal for a bearer token, or undefined for an unknown or revoked key. */
  authenticate(token: string): Promise<Principal | undefined>;
  /** Counts a request: per org for a principal, else per client IP at the Free limit. */
  rateLimit(principal: Principal | undefined, clientIp: string): Promise<RateLimitDecision>;
  /**
   * The limiter every node of the service shares (PostgreSQL, Redis, or memory on one node): the
   * API's limits and the sites' MCP limit (serve-site.ts) count in it.
   */
  limiter: RateLimiter;
  /** authenticate() then rateLimit(), in one database round trip where the limiter allows it. */
  admit(token: string | undefined, clientIp: string): Promise<{ principal?: Principal; limit: RateLimitDecision }>;
  admin(command: AdminCommand): Promise<AdminResult>;
  /** Why the service is unhealthy (store unreadable, disk nearly full), or undefined when it is healthy. */
  healthProblem(): Promise<string | undefined>;
  close(): Promise<void>;
}

export function createFolio(
  config: Config,
  store: Store,
  hooks: ProjectHooks = {},
  limiter: RateLimiter = createMemoryRateLimiter(),
  builds: BuildStorage = createDiskBuildStorage(config.dataDir),
  content: ProjectContent = localContent,
): Folio {
  const limitOf = (plan: Plan) => config.rateLimits[plan];
  const diskSpace = createDiskSpace(config.dataDir);
  const customDomains = createDomainVerifier(store, config);
  // A deleted project's files go with it (docs/decisions.md#projects), after any hook of the caller.
  const projectHooks: ProjectHooks = {
    ...hooks,
    // Connecting a repository queues its first deployment (docs/decisions.md#projects). The files
    // written through the API before are no longer the project's: its syncs write its root now.
    async onRepositoryConnected(project) {
      await hooks.onRepositoryConnected?.(project);
      await content.reset(project.id);
      await deployments.queueConnect(project);
    },
    async onRepositoryDisconnected(project) {
      await hooks.onRepositoryDisconnected?.(project);
      await deployments.forgetRepository(project.id);
    },
    async onProjectDeleted(project) {
      await hooks.onProjectDeleted?.(project);
      await deployments.forgetProject(project.id); // a running build stops before its files go
      await pages.forgetProject(project.id);
      await siteFiles.forgetProject(project.id);
      await removeProjectFiles(config.dataDir, project.id);
      await builds.removeProject(project.id);
    },
    onCustomDomainSet: (projectId) => customDomains.domainSet(projectId),
    checkCustomDomain: (projectId) => customDomains.check(projectId),
    previewServed: async (projectId, label) => (await builds.liveBuilds(projectId)).previews.has(label),
  };
  const projects = createProjectsService(store, config, projectHooks);
  const pages = createPagesService(config, projects, content);
  const siteFiles = createSiteFilesService(config, projects, content);
  const webhooks = createEventsService(config, store, projects);
  const deployments = createDeploymentsService(config, store, projects, builds, webhooks, content);
  const accounts = createAccounts(store, limiter);

  return {
    limiter,
    config,
    store,
    builds,
    projects,
    pages,
    siteFiles,
    deployments,
    webhooks,
    customDomains,
    accounts,

    usageHistory: (orgId) => limiter.history(orgId),

    async rateUsage(orgId) {
      const org = await store.getOrg(orgId);
      return limiter.peek(orgBucket(orgId), limitOf(org?.plan ?? 'free'));
    },

    async authenticate(token) {
      if (!looksLikeKey(token)) return undefined;
      // Hashed on every request: SHA-256 of a key costs about a microsecond, and a cache would
      // keep live secrets in memory.
      const found = await store.findKeyWithPlan(hashKey(token));
      if (!found || found.key.revoked_at) return undefined;
      const { key, plan } = found;
      store.touchKey(key.id, new Date().toISOString());
      return { orgId: key.org_id, keyId: key.id, scopes: key.scopes, plan };
    },

    async admit(token, clientIp) {
      if (token && limiter.hitByKey && looksLikeKey(token)) {
        const found = await limiter.hitByKey(hashKey(token), config.rateLimits);
        if (found?.decision) {
          const { key, plan } = found;
          store.touchKey(key.id, new Date().toISOString());
          return { principal: { orgId: key.org_id, keyId: key.id, scopes: key.scopes, plan }, limit: found.decision };
        }
        // Unknown or revoked: counted by client IP, as below.
        return { limit: await this.rateLimit(undefined, clientIp) };
      }
      const principal = token ? await this.authenticate(token) : undefined;
      return { principal, limit: await this.rateLimit(principal, clientIp) };
    },

    async rateLimit(principal, clientIp) {
      if (!principal) return limiter.hit(`ip:${clientIp}`, limitOf('free'));
      return limiter.hit(orgBucket(principal.orgId), limitOf(principal.plan));
    },

    admin: (command) => runAdminCommand(store, command, { accounts, consoleOrigin: consoleOrigin(config) }),

    async healthProblem() {
      if (!(await store.isHealthy())) return config.databaseUrl ? 'the database does not answer' : 'the store file is not readable';
      if (limiter.isHealthy && !(await limiter.isHealthy())) return 'Redis (FOLIO_REDIS_URL) does not answer';
      return storageProblem(diskSpace, config.minFreeMb);
    },

    async close() {
      await deployments.close();
      await webhooks.close();
      await customDomains.close();
      limiter.close();
      await closeContentChecks();
      await builds.close();
      await store.close();
    },
  };
}

// Every record the service keeps, as both stores hold it (docs/architecture.md, "The store").
import type { Plan } from '../config.ts';
import type { DeploymentErrorCode } from '../errors.ts';
import type { Scope } from '../scopes.ts';
import type { ProgressReport } from '../../builder/build-progress.ts';

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
  /** The build's latest progress report, from Folio's own counters (src/builder/build-progress.ts); shown only while building. */
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


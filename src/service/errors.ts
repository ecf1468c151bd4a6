// The one error model of Folio (docs/architecture.md#errors): a FolioError carries a code and a
// message; its HTTP status is derived from the code in ERROR_STATUS, the one table. The service,
// the deployment runner, the API and the admin channel all throw and answer it as is;
// `formatIssues` is the one wording of a schema's (zod's) problems.
import type { z } from 'zod';

/**
 * Every error code with its HTTP status. The codes the API answers are listed for users in
 * content/api/errors.mdx; the deployment failures (the last group) in content/api/deployments.mdx.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  slug_taken: 409,
  domain_taken: 409,
  name_taken: 409,
  page_exists: 409,
  source_managed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  // Well-formed but beyond what the content check can read in its time limit.
  content_too_complex: 422,
  rate_limited: 429,
  internal_error: 500,
  insufficient_storage: 507,
  // Continuous deployment: promote of a deployment without a kept build, cancel of one that ended.
  not_promotable: 409,
  not_cancelable: 409,
  // Why a deployment failed: recorded as its `error` (code and message), never answered to the
  // request that queued it; the status says what kind of failure it is.
  sync_failed: 502,
  build_failed: 422,
  no_pages: 422,
  timeout: 504,
  interrupted: 503,
  disk_full: 507,
  sandbox_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The codes a failed deployment records (its `error.code`). */
export const DEPLOYMENT_ERROR_CODES = ['sync_failed', 'build_failed', 'no_pages', 'timeout', 'interrupted', 'disk_full', 'sandbox_unavailable'] as const satisfies readonly ErrorCode[];
export type DeploymentErrorCode = (typeof DEPLOYMENT_ERROR_CODES)[number];

export class FolioError extends Error {
  override name = 'FolioError';
  readonly code: ErrorCode;
  /** Extra response headers (`Allow`, `Retry-After`, `WWW-Authenticate`). */
  readonly headers?: Record<string, string>;
  constructor(code: ErrorCode, message: string, headers?: Record<string, string>) {
    super(message);
    this.code = code;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isFolioError(err: unknown): err is FolioError {
  return err instanceof FolioError;
}

/** True for a write refused because the disk (or the user's quota) is full. */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * The domain's answer to a write the disk could not hold (HTTP 507): what was being stored, and
 * that nothing of it was kept. Any other error passes through unchanged.
 */
export function asStorageError(err: unknown, what: string): unknown {
  if (!isOutOfSpace(err)) return err;
  return new FolioError('insufficient_storage', `the server's disk is full: ${what} could not be stored and nothing was changed; retry once space is freed`);
}

/** Where a schema problem is: its path as written (`navigation.0.pages`), empty at the top level. */
export function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.');
}

/**
 * The one wording of a schema's first problem, naming the field: `unknown field "x"`,
 * `name must be string`, or the schema's own message (which names the field). When the value
 * itself is wrong, not a field of it: `topLevel` if given, else the schema's message.
 */
export function formatIssues(error: z.ZodError, topLevel?: string): string {
  const issue = error.issues[0];
  if (!issue) return topLevel ?? 'invalid value';
  if (issue.code === 'unrecognized_keys') return `unknown field "${issue.keys[0]}"`;
  const field = issuePath(issue);
  if (!field) return topLevel ?? issue.message;
  if (issue.code === 'invalid_type' && !issue.message.startsWith(field)) return `${field} must be ${issue.expected}`;
  return issue.message;
}

// The one error type of the domain layer. The API maps `code` to an HTTP status.

export type DomainErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'slug_taken'
  | 'domain_taken'
  | 'name_taken'
  | 'page_exists'
  | 'source_managed'
  | 'insufficient_storage'
  | 'content_too_complex'
  // Continuous deployment: promote of a deployment without a kept build, cancel of one that ended.
  | 'not_promotable'
  | 'not_cancelable';

export class DomainError extends Error {
  override name = 'DomainError';
  code: DomainErrorCode;
  constructor(code: DomainErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Recognises a DomainError by shape, not by class: the built API bundle carries its own copy of
 * this module, so `instanceof` would fail across the server/bundle boundary.
 */
export function isDomainError(err: unknown): err is DomainError {
  return err instanceof Error && err.name === 'DomainError' && typeof (err as DomainError).code === 'string';
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
  return new DomainError('insufficient_storage', `the server's disk is full: ${what} could not be stored and nothing was changed; retry once space is freed`);
}

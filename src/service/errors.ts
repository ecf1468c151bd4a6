// The one error type of the domain layer. The API maps `code` to an HTTP status.

export type DomainErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'slug_taken'
  | 'domain_taken'
  | 'name_taken'
  | 'page_exists'
  | 'source_managed'
  | 'content_too_complex';

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

// The `limit` and `cursor` query parameters shared by every list endpoint (docs/decisions.md#http-conventions).
import { FolioError } from './http.ts';

export function listParams(query: URLSearchParams): { limit: number; cursor?: string } {
  const rawLimit = query.get('limit');
  let limit = 20;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) {
      throw new FolioError('invalid_request', 'limit must be a whole number from 1 to 100');
    }
    limit = Number(rawLimit);
  }
  const cursor = query.get('cursor');
  if (cursor === '') throw new FolioError('invalid_request', 'cursor must not be empty: omit it for the first page');
  return cursor === null ? { limit } : { limit, cursor };
}

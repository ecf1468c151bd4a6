// API keys: generation and hashing. A key is shown once; only its SHA-256 and prefix are stored.
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { projectName } from './project-rules.ts';
import { SCOPES, type Scope } from './scopes.ts';
import type { ApiKeyRecord } from './store/records.ts';

const KEY_PREFIX = 'folio_';
const KEY_PATTERN = /^folio_[A-Za-z0-9_-]{43}$/;

export function hashKey(key: string): string {
  // The one-shot form: hashed on every API request, it costs a third of createHash().update().digest().
  return hash('sha256', key, 'hex');
}

/** True when the text has the shape of a Folio key (saves hashing obvious garbage). */
export function looksLikeKey(text: string): boolean {
  return KEY_PATTERN.test(text);
}

/** Makes a new key: returns the secret value (to show once) and the record to store. */
export function generateKey(orgId: string, scopes: Scope[], name: string): { key: string; record: ApiKeyRecord } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return {
    key,
    record: {
      id: randomUUID(),
      org_id: orgId,
      name,
      prefix: key.slice(0, 12),
      hash: hashKey(key),
      scopes,
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
    },
  };
}

/** A key's name: the same rule as a project's name (1 to 80 characters, not blank, no control characters). */
export const keyNameField = projectName;

/** Create API Key in the console: a name and at least one scope. */
export const createKeyForm = z.strictObject({
  name: keyNameField,
  scopes: z.array(z.enum(SCOPES, { error: `scopes must be among ${SCOPES.join(', ')}` }), { error: 'scopes must be a list' }).min(1, 'scopes: choose at least one scope'),
});

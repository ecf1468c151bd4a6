// Push webhooks (docs/decisions.md#continuous-deployment): what a git host's delivery to
// /hooks/git/{project_id} says, and whether it is authentic. GitHub (and the generic form) sign the
// raw body with HMAC-SHA256 in `X-Hub-Signature-256`; GitLab sends the secret in `X-Gitlab-Token`.
// Comparisons run in constant time, so timing tells an attacker nothing about the secret.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new push webhook secret: 32 random bytes, url-safe. */
export function newWebhookSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Equality of two strings in time independent of where they differ (hashed first: lengths may differ). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** `sha256=<hex>` of the raw body under the secret, as GitHub sends it. */
export function bodySignature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export type Headers = (name: string) => string | null;

/** Whether a delivery proves it knows the project's secret (signature, or GitLab's token). */
export function deliveryIsAuthentic(secret: string | undefined, headers: Headers, body: Uint8Array): boolean {
  if (!secret) return false;
  const signature = headers('x-hub-signature-256');
  if (signature !== null) return sameSecret(signature.trim().toLowerCase(), bodySignature(secret, body));
  const token = headers('x-gitlab-token');
  if (token !== null) return sameSecret(token, secret);
  return false;
}

export const ZERO_SHA = /^0+$/;

/** What a delivery asks for, once authentic. */
export type PushEvent =
  | { kind: 'ping' }
  | { kind: 'push'; branch: string; sha?: string; deleted: boolean }
  | { kind: 'other'; reason: string };

/** Reads the event from the headers and the JSON body (GitHub, GitLab or the generic `{ref}`). */
export function readPushEvent(headers: Headers, body: unknown): PushEvent {
  const github = headers('x-github-event');
  const gitlab = headers('x-gitlab-event');
  if (github === 'ping') return { kind: 'ping' };
  if (github !== null && github !== 'push') return { kind: 'other', reason: `GitHub event "${github}" is not a push` };
  if (gitlab !== null && gitlab !== 'Push Hook') return { kind: 'other', reason: `GitLab event "${gitlab}" is not a push` };
  if (typeof body !== 'object' || body === null) return { kind: 'other', reason: 'the body is not a JSON object' };
  const { ref, after, deleted } = body as Record<string, unknown>;
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/')) {
    return { kind: 'other', reason: typeof ref === 'string' ? `ref ${ref} is not a branch` : 'the body has no "ref"' };
  }
  const sha = typeof after === 'string' && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(after) ? after : undefined;
  return { kind: 'push', branch: ref.slice('refs/heads/'.length), sha: sha && !ZERO_SHA.test(sha) ? sha : undefined, deleted: deleted === true || (sha !== undefined && ZERO_SHA.test(sha)) };
}

/**
 * A branch's preview host label: lower-case letters, digits and single hyphens, so
 * `{label}--{slug}` splits at its first `--`. A branch whose name is not already such a label
 * (`feature/x`, `Fix_1`) gets a short hash of its name, so two branches never share a preview.
 */
export function previewLabel(branch: string, slug: string): string {
  const clean = branch.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const room = Math.max(1, 63 - 2 - slug.length);
  if (clean === branch && clean.length > 0 && clean.length <= room) return clean;
  const hash = createHash('sha256').update(branch).digest('hex').slice(0, 6);
  const head = clean.slice(0, Math.max(0, room - hash.length - 1)).replace(/-+$/, '');
  return head ? `${head}-${hash}` : hash;
}

/** Whether a branch matches a preview pattern: `*` matches any run of characters (slashes too); no pattern matches all. */
export function branchMatches(pattern: string | undefined, branch: string): boolean {
  if (!pattern) return true;
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return regex.test(branch);
}

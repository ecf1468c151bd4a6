// The console's cookie, headers and cross-site request checks (docs/decisions.md#console).
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../service/config.ts';

/**
 * Over https the cookie carries the `__Host-` prefix: browsers then accept it only with Secure,
 * Path=/ and no Domain attribute, so no other host, a tenant's `{slug}.{domain}` site included,
 * can set or overwrite it. Over plain http (a laptop) the prefix is impossible (it requires
 * Secure), and the name is plain.
 */
export function sessionCookieName(config: Pick<Config, 'publicScheme'>): string {
  return config.publicScheme === 'https' ? '__Host-folio_session' : 'folio_session';
}

/**
 * Host-only (no Domain attribute): the browser sends it to the console's host alone, never to a
 * tenant's site on a sibling host. Expiry is enforced by the server (7 days idle); the browser's
 * copy is renewed with every page.
 */
export function sessionCookieOptions(config: Pick<Config, 'publicScheme'>) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: config.publicScheme === 'https',
    maxAge: 7 * 24 * 60 * 60,
  };
}

/**
 * Every console answer. No inline script or style at all (Astro's output is files under /_astro),
 * so the policy needs no hashes; nothing may frame the console (clickjacking), nothing is sniffed,
 * and no URL of the console (invite links carry a token) leaks to another site as a Referer.
 * `same-origin`, not `no-referrer`: under `no-referrer` browsers send `Origin: null` with the
 * console's own forms, and the Origin check could no longer tell them from a cross-site post.
 */
export const CONSOLE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Equal tokens, compared in constant time. */
export function sameToken(a: string | null | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A form body larger than this is refused before it is read (a page's content is at most 2 MiB). */
export const MAX_FORM_BYTES = 3 * 1024 * 1024;

// API key scopes (docs/decisions.md#scopes).

export const SCOPES = [
  'projects:read',
  'projects:write',
  'pages:read',
  'pages:write',
  'deployments:read',
  'deployments:trigger',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Parses `all` or `SCOPE,SCOPE…`; throws a message listing the valid scopes. */
export function parseScopes(text: string): Scope[] {
  if (text.trim() === 'all') return [...SCOPES];
  const scopes = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = scopes.find((s) => !isScope(s));
  if (bad !== undefined || scopes.length === 0) {
    throw new Error(`unknown scope "${bad ?? text}": use "all" or a comma-separated list of ${SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

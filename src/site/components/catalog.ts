// Folio's authoring components, by name. The content checker and the renderer both read this list,
// so an MDX page can use exactly these tags without imports.

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The theme token that colours each method's badge (docs/decisions.md#content-root rule 2). */
export const METHOD_TOKENS: Record<HttpMethod, string> = {
  GET: '--docs-success',
  POST: '--docs-info',
  PUT: '--docs-warning',
  PATCH: '--docs-primary',
  DELETE: '--docs-danger',
  OPTIONS: '--docs-fg-muted',
  HEAD: '--docs-fg-muted',
};

/** Returns the canonical method name, or undefined when the value is not one of the seven. */
export function normalizeMethod(value: unknown): HttpMethod | undefined {
  if (typeof value !== 'string') return undefined;
  const upper = value.trim().toUpperCase();
  return (HTTP_METHODS as readonly string[]).includes(upper) ? (upper as HttpMethod) : undefined;
}

export const COMPONENT_NAMES = ['ApiMethod', 'Callout', 'Snippet'] as const;

export const CALLOUT_KINDS = ['note', 'tip', 'warning', 'danger'] as const;

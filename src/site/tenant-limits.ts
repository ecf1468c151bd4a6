// Limits on what a tenant's site files may make the server do on its event loop or keep in its
// memory (docs/decisions.md#json-positions-and-redirects-stay-linear). Each is far above what real
// documentation needs; they are here together so that one place says what a site may cost.

/**
 * Longest object key of a site file (docs.json, mint.json) that gets a position of its own in a
 * problem's `file:line:col`; a longer one (no real key is) points at the object holding it.
 */
export const MAX_LOCATED_KEY_LENGTH = 1024;

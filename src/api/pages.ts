// /v1/projects/{id}/pages endpoints: thin adapters from HTTP to the pages service. A page path
// may contain `/`, so it is the rest of the URL (`*path`).
import { createPageBody, updatePageBody } from '../service/pages/rules.ts';
import { parseBody } from './http.ts';
import { listParams } from './list-params.ts';
import type { Route } from './router.ts';

/** Page bodies may be larger than other bodies (docs/decisions.md#http-conventions). */
export const MAX_PAGE_BODY_BYTES = 2 * 1024 * 1024;

const pageBody = { maxBytes: MAX_PAGE_BODY_BYTES };

export const pageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/projects/:id/pages',
    scope: 'pages:read',
    async handler({ folio, principal, params, query }) {
      const { limit, cursor } = listParams(query);
      return { status: 200, body: await folio.pages.list(principal.orgId, params.id, limit, cursor) };
    },
  },
  {
    method: 'POST',
    path: '/v1/projects/:id/pages',
    scope: 'pages:write',
    body: pageBody,
    async handler({ folio, principal, params, body }) {
      return { status: 201, body: await folio.pages.create(principal.orgId, params.id, parseBody(createPageBody, body)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/pages/*path',
    scope: 'pages:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.pages.get(principal.orgId, params.id, params.path) };
    },
  },
  {
    method: 'PATCH',
    path: '/v1/projects/:id/pages/*path',
    scope: 'pages:write',
    body: pageBody,
    async handler({ folio, principal, params, body }) {
      return { status: 200, body: await folio.pages.update(principal.orgId, params.id, params.path, parseBody(updatePageBody, body)) };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/projects/:id/pages/*path',
    scope: 'pages:write',
    async handler({ folio, principal, params }) {
      await folio.pages.delete(principal.orgId, params.id, params.path);
      return { status: 204 };
    },
  },
];

// /v1/projects endpoints: thin adapters from HTTP to the projects service.
import { createProjectBody, updateProjectBody } from '../service/project-rules.ts';
import { MAX_BODY_BYTES, parseBody } from './http.ts';
import { listParams } from './list-params.ts';
import type { Route } from './router.ts';

const jsonBody = { maxBytes: MAX_BODY_BYTES };

export const projectRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/projects',
    scope: 'projects:read',
    async handler({ folio, principal, query }) {
      const { limit, cursor } = listParams(query);
      return { status: 200, body: await folio.projects.list(principal.orgId, limit, cursor) };
    },
  },
  {
    method: 'POST',
    path: '/v1/projects',
    scope: 'projects:write',
    body: jsonBody,
    async handler({ folio, principal, body }) {
      return { status: 201, body: await folio.projects.create(principal.orgId, parseBody(createProjectBody, body)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id',
    scope: 'projects:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.projects.get(principal.orgId, params.id) };
    },
  },
  {
    method: 'PATCH',
    path: '/v1/projects/:id',
    scope: 'projects:write',
    body: jsonBody,
    async handler({ folio, principal, params, body }) {
      const { id: _id, slug: _slug, status: _status, ...input } = parseBody(updateProjectBody, body);
      return { status: 200, body: await folio.projects.update(principal.orgId, params.id, input) };
    },
  },
  {
    method: 'POST',
    path: '/v1/projects/:id/custom-domain/verify',
    scope: 'projects:write',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.projects.verifyCustomDomain(principal.orgId, params.id) };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/projects/:id',
    scope: 'projects:write',
    async handler({ folio, principal, params }) {
      await folio.projects.delete(principal.orgId, params.id);
      return { status: 204 };
    },
  },
];

// /v1/projects/{id}/docs-json and /v1/projects/{id}/snippets endpoints: thin adapters from HTTP to
// the site files service (docs/decisions.md#site-files-api). A snippet path may contain `/`, so it
// is the rest of the URL (`*path`). Scopes: pages:read and pages:write, as for pages.
import { z } from 'zod';
import { parseBody } from './http.ts';
import { MAX_PAGE_BODY_BYTES } from './pages.ts';
import type { Route } from './router.ts';

const siteFileBody = { maxBytes: MAX_PAGE_BODY_BYTES };

const snippetBody = z.strictObject({
  content: z.string({ error: (iss) => (iss.input === undefined ? 'content is required' : 'content must be a string') }),
});

export const siteFileRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/projects/:id/docs-json',
    scope: 'pages:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.siteFiles.getDocsJson(principal.orgId, params.id) };
    },
  },
  {
    method: 'PUT',
    path: '/v1/projects/:id/docs-json',
    scope: 'pages:write',
    body: siteFileBody,
    async handler({ folio, principal, params, body }) {
      const { view, created } = await folio.siteFiles.putDocsJson(principal.orgId, params.id, body);
      return { status: created ? 201 : 200, body: view };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/projects/:id/docs-json',
    scope: 'pages:write',
    async handler({ folio, principal, params }) {
      await folio.siteFiles.deleteDocsJson(principal.orgId, params.id);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/snippets',
    scope: 'pages:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.siteFiles.listSnippets(principal.orgId, params.id) };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/snippets/*path',
    scope: 'pages:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.siteFiles.getSnippet(principal.orgId, params.id, params.path) };
    },
  },
  {
    method: 'PUT',
    path: '/v1/projects/:id/snippets/*path',
    scope: 'pages:write',
    body: siteFileBody,
    async handler({ folio, principal, params, body }) {
      const { content } = parseBody(snippetBody, body);
      const { view, created } = await folio.siteFiles.putSnippet(principal.orgId, params.id, params.path, content);
      return { status: created ? 201 : 200, body: view };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/projects/:id/snippets/*path',
    scope: 'pages:write',
    async handler({ folio, principal, params }) {
      await folio.siteFiles.deleteSnippet(principal.orgId, params.id, params.path);
      return { status: 204 };
    },
  },
];

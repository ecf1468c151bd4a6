// /v1/projects/{id}/deployments endpoints (docs/decisions.md#deployments): thin adapters from HTTP to the
// deployments service. A trigger takes no body; anything sent is ignored.
import { listParams } from './list-params.ts';
import type { Route } from './router.ts';

export const deploymentRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/projects/:id/deployments',
    scope: 'deployments:read',
    async handler({ folio, principal, params, query }) {
      const { limit, cursor } = listParams(query);
      return { status: 200, body: await folio.deployments.list(principal.orgId, params.id, limit, cursor) };
    },
  },
  {
    method: 'POST',
    path: '/v1/projects/:id/deployments',
    scope: 'deployments:trigger',
    async handler({ folio, principal, params }) {
      return { status: 202, body: await folio.deployments.trigger(principal.orgId, params.id) };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/deployments/:deployment_id',
    scope: 'deployments:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.deployments.get(principal.orgId, params.id, params.deployment_id) };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/deployments/:deployment_id/log',
    scope: 'deployments:read',
    async handler({ folio, principal, params }) {
      const text = await folio.deployments.log(principal.orgId, params.id, params.deployment_id);
      return new Response(text, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
    },
  },
];

// /v1/projects/{id}/deployments endpoints (docs/decisions.md#deployments): thin adapters from HTTP to the
// deployments service. A trigger needs no body; one sent is a JSON object of its options.
import { z } from 'zod';
import { FolioError, MAX_BODY_BYTES, parseBody } from './http.ts';
import { listParams } from './list-params.ts';
import type { Route } from './router.ts';

const triggerBody = z.strictObject({
  full_build: z.boolean({ error: 'full_build must be true (build every page, reusing nothing of the previous build) or false' }).optional(),
});

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
    // No body (most clients) triggers as before; a body must be this object (docs/decisions.md#fast-redeploys).
    body: { maxBytes: MAX_BODY_BYTES, optional: true },
    async handler({ folio, principal, params, body }) {
      const options = parseBody(triggerBody, body);
      return { status: 202, body: await folio.deployments.trigger(principal.orgId, params.id, { fullBuild: options.full_build === true }) };
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
    async handler({ folio, principal, params, query }) {
      const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
      // ?follow=1: the log as it is written, until the deployment ends.
      const follow = query.get('follow');
      if (follow !== null && follow !== '0' && follow !== '1' && follow !== 'true' && follow !== 'false') {
        throw new FolioError('invalid_request', 'follow must be 1 (stream the log until the deployment ends) or 0');
      }
      if (follow === '1' || follow === 'true') {
        const stream = await folio.deployments.followLog(principal.orgId, params.id, params.deployment_id);
        return new Response(stream, { status: 200, headers: { ...headers, 'x-accel-buffering': 'no' } });
      }
      const text = await folio.deployments.log(principal.orgId, params.id, params.deployment_id);
      return new Response(text, { status: 200, headers });
    },
  },
  {
    method: 'POST',
    path: '/v1/projects/:id/deployments/:deployment_id/promote',
    scope: 'deployments:trigger',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.deployments.promote(principal.orgId, params.id, params.deployment_id) };
    },
  },
  {
    method: 'POST',
    path: '/v1/projects/:id/deployments/:deployment_id/cancel',
    scope: 'deployments:trigger',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.deployments.cancel(principal.orgId, params.id, params.deployment_id) };
    },
  },
];

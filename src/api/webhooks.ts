// /v1/projects/{id}/webhooks endpoints and the push webhook secret (docs/decisions.md#continuous-deployment):
// thin adapters from HTTP to the events and deployments services.
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../service/deployments/events.ts';
import { MAX_BODY_BYTES, parseBody } from './http.ts';
import { listParams } from './list-params.ts';
import type { Route } from './router.ts';

const webhookBody = z.strictObject({
  url: z.string({ error: 'url is required: the address events are POSTed to, such as https://example.com/folio-events' }).min(1, 'url must not be empty'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS as [string, ...string[]], `events must list some of ${WEBHOOK_EVENTS.join(', ')}`), { error: `events must be an array of ${WEBHOOK_EVENTS.join(', ')}` })
    .min(1, 'events must name at least one event (or be left out for all)')
    .optional(),
});

export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/projects/:id/webhook-secret',
    scope: 'projects:write',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.deployments.rotateWebhookSecret(principal.orgId, params.id) };
    },
  },
  {
    method: 'POST',
    path: '/v1/projects/:id/webhooks',
    scope: 'projects:write',
    body: { maxBytes: MAX_BODY_BYTES },
    async handler({ folio, principal, params, body }) {
      const input = parseBody(webhookBody, body);
      return { status: 201, body: await folio.webhooks.create(principal.orgId, params.id, input as Parameters<typeof folio.webhooks.create>[2]) };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/webhooks',
    scope: 'projects:read',
    async handler({ folio, principal, params }) {
      return { status: 200, body: await folio.webhooks.list(principal.orgId, params.id) };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/projects/:id/webhooks/:webhook_id',
    scope: 'projects:write',
    async handler({ folio, principal, params }) {
      await folio.webhooks.delete(principal.orgId, params.id, params.webhook_id);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/v1/projects/:id/webhooks/:webhook_id/deliveries',
    scope: 'projects:read',
    async handler({ folio, principal, params, query }) {
      const { limit, cursor } = listParams(query);
      return { status: 200, body: await folio.webhooks.deliveries(principal.orgId, params.id, params.webhook_id, limit, cursor) };
    },
  },
];

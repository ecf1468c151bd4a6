// Events out (docs/decisions.md#continuous-deployment): a project's webhooks receive
// `deployment.started`, `deployment.succeeded` and `deployment.failed`, signed with the webhook's
// secret (`Folio-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`).
// Deliveries are stored with their schedule, so a restart loses none: each is tried until a 2xx
// answer, with exponential backoff, for a day. The target's host is resolved once per attempt and
// the connection goes to that address, which must be public unless FOLIO_WEBHOOK_ALLOW_PRIVATE=1,
// so DNS rebinding cannot reach the server's own network; redirects are not followed.
import { createHmac, randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.ts';
import { FolioError } from '../errors.ts';
import { decodeListCursor, encodeListCursor, type ProjectsService } from '../projects.ts';
import type { DeliveryRecord, WebhookEvent, WebhookRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { newWebhookSecret } from './push.ts';
import type { Deployment, DeploymentEvents } from './service.ts';

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['deployment.started', 'deployment.succeeded', 'deployment.failed'];
/** Webhooks per project. */
export const MAX_WEBHOOKS = 10;
/** The first retry waits this long; each next one twice as long, at most RETRY_MAX_MS; none after RETRY_FOR_MS. */
export const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 60 * 60 * 1000;
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
const ATTEMPT_TIMEOUT_MS = 10_000;
const TICK_MS = 500;
const PARALLEL_ATTEMPTS = 8;

export interface Webhook {
  id: string;
  project_id: string;
  url: string;
  events: WebhookEvent[];
  created_at: string;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event: WebhookEvent;
  status: DeliveryRecord['status'];
  attempts: number;
  created_at: string;
  last_attempt_at?: string;
  next_attempt_at?: string;
  response_code?: number;
  last_error?: string;
}

export interface WebhookInput {
  url: string;
  events?: WebhookEvent[];
}

export interface EventsService extends DeploymentEvents {
  /** Registers a webhook; the answer holds its signing secret, shown this once. */
  create(orgId: string, projectId: string, input: WebhookInput): Promise<Webhook & { secret: string }>;
  list(orgId: string, projectId: string): Promise<{ data: Webhook[] }>;
  delete(orgId: string, projectId: string, webhookId: string): Promise<void>;
  deliveries(orgId: string, projectId: string, webhookId: string, limit: number, cursor?: string): Promise<{ data: Delivery[]; next_cursor: string | null }>;
  start(): void;
  close(): Promise<void>;
}

/** Addresses no webhook may reach unless FOLIO_WEBHOOK_ALLOW_PRIVATE=1: the server's own networks and non-unicast space. */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, v4-compatible
  ['64:ff9b::', 96], // NAT64: reaches v4 space
  ['fe80::', 10], // link-local
  ['fc00::', 7], // unique local
  ['ff00::', 8], // multicast
] as const) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside a v4-mapped IPv6 address (`::ffff:a.b.c.d`, in any spelling), if it is one. */
function mappedV4(address: string): string | undefined {
  const url = new URL(`http://[${address}]/`).hostname.slice(1, -1); // normalised: ::ffff:7f00:1
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(url);
  if (!match) return undefined;
  const [hi, lo] = [parseInt(match[1], 16), parseInt(match[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an address is private, loopback, link-local, unique-local, CGNAT, multicast or unspecified (v4, v6 or v4-mapped v6). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = mappedV4(address);
  return v4 ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(address, 'ipv6');
}

/** Why a webhook URL is refused at registration, if it is. The address is checked again at each delivery. */
function urlProblem(value: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute http or https URL, such as https://example.com/folio-events';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must use http or https';
  if (url.username || url.password) return 'url must not contain a user name or password';
  if (value.length > 2048) return 'url must be at most 2048 characters';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address is refused now; a host name is resolved, and its addresses checked, at each delivery.
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return 'url must name a public address: private, loopback and link-local targets are refused';
  }
  return undefined;
}

/** The delay before retry number `attempts` (1 = the first retry). */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS);
}

/** `t=…,v1=…` of a body at a time (unix seconds). */
export function eventSignature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const webhookView = (w: WebhookRecord): Webhook => ({ id: w.id, project_id: w.project_id, url: w.url, events: [...w.events], created_at: w.created_at });

const deliveryView = (d: DeliveryRecord): Delivery => {
  const view: Delivery = { id: d.id, webhook_id: d.webhook_id, event: d.event, status: d.status, attempts: d.attempts, created_at: d.created_at };
  for (const field of ['last_attempt_at', 'next_attempt_at', 'response_code', 'last_error'] as const) {
    if (d[field] !== undefined) (view as unknown as Record<string, unknown>)[field] = d[field];
  }
  return view;
};

class DeliveryError extends Error {}

/** One POST of a delivery: resolves with the status code; the connection goes to the address checked. */
async function send(url: URL, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<number> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let address: string;
  let family: number;
  if (isIP(host)) {
    address = host;
    family = isIP(host);
  } else {
    let timer: NodeJS.Timeout | undefined;
    const found = await Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ATTEMPT_TIMEOUT_MS))),
    ])
      .catch(() => {
        throw new DeliveryError(`could not resolve ${host}`);
      })
      .finally(() => clearTimeout(timer));
    if (found.length === 0) throw new DeliveryError(`could not resolve ${host}`);
    // Every address must pass: the one used is the first, and it is never looked up again.
    if (!allowPrivate && found.some((a) => isPrivateAddress(a.address))) throw new DeliveryError(`${host} resolves to a private address; refused`);
    ({ address, family } = found[0]);
  }
  if (!allowPrivate && isPrivateAddress(address)) throw new DeliveryError(`${address} is a private address; refused`);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: ATTEMPT_TIMEOUT_MS,
        agent: false,
        // Connects to the address checked above, whatever DNS says now (no rebinding).
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else callback(null, address, family);
        },
      },
      (response) => {
        clearTimeout(overall);
        // Only the status counts (a redirect is a failure): the body is never read, and the
        // connection is closed at once, so a receiver cannot hold it open by dripping bytes.
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    // A whole-attempt limit: the socket's idle timeout alone would let a slow drip of header bytes go on.
    const overall = setTimeout(() => request.destroy(new DeliveryError(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`)), ATTEMPT_TIMEOUT_MS);
    request.on('timeout', () => request.destroy(new DeliveryError(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) => {
      clearTimeout(overall);
      reject(error instanceof DeliveryError ? error : new DeliveryError(error.message));
    });
    request.end(body);
  });
}

export function createEventsService(config: Config, store: Store, projects: ProjectsService): EventsService {
  const inFlight = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const running = new Set<Promise<void>>();

  const ownedWebhook = async (orgId: string, projectId: string, webhookId: string) => {
    const project = await projects.get(orgId, projectId);
    const webhook = await store.getWebhook(webhookId);
    if (!webhook || webhook.project_id !== project.id) throw new FolioError('not_found', `webhook ${webhookId} not found`);
    return webhook;
  };

  const attempt = async (delivery: DeliveryRecord) => {
    const webhook = await store.getWebhook(delivery.webhook_id);
    if (!webhook) return;
    const now = Date.now();
    const timestamp = Math.floor(now / 1000);
    let code: number | undefined;
    let error: string | undefined;
    try {
      code = await send(
        new URL(webhook.url),
        {
          'content-type': 'application/json',
          'user-agent': 'Folio-Webhooks/1',
          'folio-event': delivery.event,
          'folio-delivery': delivery.id,
          'folio-signature': eventSignature(webhook.secret, timestamp, delivery.body),
        },
        delivery.body,
        config.webhookAllowPrivate,
      );
      if (code < 200 || code > 299) error = `answered ${code}${code >= 300 && code < 400 ? ' (redirects are not followed)' : ''}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const attempts = delivery.attempts + 1;
    const at = new Date(now).toISOString();
    if (!error) {
      await store.updateDelivery(delivery.id, { status: 'succeeded', attempts, last_attempt_at: at, response_code: code, next_attempt_at: undefined, last_error: undefined });
      return;
    }
    const next = now + retryDelay(attempts);
    const expired = next > Date.parse(delivery.created_at) + RETRY_FOR_MS;
    await store.updateDelivery(delivery.id, {
      status: expired ? 'failed' : 'pending',
      attempts,
      last_attempt_at: at,
      response_code: code,
      last_error: error,
      next_attempt_at: expired ? undefined : new Date(next).toISOString(),
    });
  };

  const tick = async () => {
    if (closed) return;
    const now = Date.now();
    const due = (await store.pendingDeliveries())
      .filter((d) => !inFlight.has(d.id) && Date.parse(d.next_attempt_at ?? d.created_at) <= now)
      .sort((a, b) => (a.next_attempt_at ?? a.created_at).localeCompare(b.next_attempt_at ?? b.created_at));
    for (const delivery of due) {
      if (inFlight.size >= PARALLEL_ATTEMPTS || closed) return;
      inFlight.add(delivery.id);
      const run = attempt(delivery)
        .catch((error) => console.error(`webhook delivery ${delivery.id}:`, error))
        .finally(() => {
          inFlight.delete(delivery.id);
          running.delete(run);
        });
      running.add(run);
    }
  };

  return {
    async create(orgId, projectId, input) {
      const project = await projects.get(orgId, projectId);
      const problem = urlProblem(input.url, config.webhookAllowPrivate);
      if (problem) throw new FolioError('invalid_request', problem);
      if ((await store.listWebhooks(project.id)).length >= MAX_WEBHOOKS) {
        throw new FolioError('invalid_request', `a project has at most ${MAX_WEBHOOKS} webhooks: delete one first`);
      }
      const secret = newWebhookSecret('whsec_');
      const record = await store.createWebhook({
        id: randomUUID(),
        project_id: project.id,
        url: input.url,
        events: [...new Set(input.events ?? WEBHOOK_EVENTS)],
        secret,
        created_at: new Date().toISOString(),
      });
      return { ...webhookView(record), secret };
    },

    async list(orgId, projectId) {
      const project = await projects.get(orgId, projectId);
      return { data: (await store.listWebhooks(project.id)).map(webhookView) };
    },

    async delete(orgId, projectId, webhookId) {
      const webhook = await ownedWebhook(orgId, projectId, webhookId);
      await store.deleteWebhook(webhook.id);
    },

    async deliveries(orgId, projectId, webhookId, limit, cursor) {
      const webhook = await ownedWebhook(orgId, projectId, webhookId);
      const page = await store.listDeliveries(webhook.id, limit, cursor === undefined ? undefined : decodeListCursor(cursor));
      const last = page.items.at(-1);
      return { data: page.items.map(deliveryView), next_cursor: page.hasMore && last ? encodeListCursor(last) : null };
    },

    emit(event: WebhookEvent, deployment: Deployment) {
      void (async () => {
        const webhooks = (await store.listWebhooks(deployment.project_id)).filter((w) => w.events.includes(event));
        if (webhooks.length === 0) return;
        const createdAt = new Date().toISOString();
        const body = JSON.stringify({ id: randomUUID(), type: event, created_at: createdAt, data: { deployment } });
        for (const webhook of webhooks) {
          await store.createDelivery({
            id: randomUUID(),
            webhook_id: webhook.id,
            project_id: deployment.project_id,
            event,
            body,
            status: 'pending',
            attempts: 0,
            created_at: createdAt,
            next_attempt_at: createdAt,
          });
        }
        await tick();
      })().catch((error) => console.error(`webhook event ${event}:`, error));
    },

    start() {
      timer = setInterval(() => void tick().catch((error) => console.error('webhook deliveries:', error)), TICK_MS);
      timer.unref();
    },

    async close() {
      closed = true;
      clearInterval(timer);
      await Promise.all(running);
    },
  };
}

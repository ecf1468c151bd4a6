// The production entry and the composition root (docs/architecture.md#one-composition-root): one
// node:http server that routes by Host (docs/decisions.md#hosts-and-configuration). Project hosts
// get their site; every other host gets the API, handled by the built Astro service role, which
// imports the same modules as this file, so the objects made here are the ones the endpoints use.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createObjectSiteSource } from './hosting/object-site-source.ts';
import { createSiteHandler } from './hosting/serve-site.ts';
import { createDiskSiteSource, type SiteSource } from './hosting/site-source.ts';
import { SERVICE_ENTRY, SERVICE_OUT_DIR } from './api/build-service.ts';
import { createConsoleAssets } from './console/assets.ts';
import { consoleProblem } from './console/middleware.ts';
import { consoleHost, consoleOrigin } from './service/accounts.ts';
import { errorResponse, FolioError, toApiError } from './api/http.ts';
import { createApiRouter } from './api/routes.ts';
import { createAstroHandler, writeResponse, type AstroApp, type AstroHandler } from './api/serve-astro.ts';
import { createKey, createOrg } from './service/admin-commands.ts';
import { serveAdminChannel } from './service/admin-channel.ts';
import { ConfigError, loadConfig, type Config, type Role } from './service/config.ts';
import { acquireLockPatiently, LockHeldError } from './service/data-dir-lock.ts';
import { cleanCrashLeftovers } from './service/crash-leftovers.ts';
import { recoverDeployments } from './service/deployments/service.ts';
import { isFolioError } from './service/errors.ts';
import { createFolio, type Folio } from './service/folio.ts';
import { RESERVED_SLUGS } from './service/project-rules.ts';
import type { RateLimiter } from './service/rate-limiter.ts';
import type { ProjectContent } from './service/project-content.ts';
import { openStorage } from './service/storage.ts';
import type { BuildServing, BuildStorage } from './service/builds/storage.ts';
import { ObjectStorageError } from './service/object-storage/client.ts';
import { StoreDamagedError } from './service/store/json/index.ts';
import type { Org } from './service/store/records.ts';
import type { Store } from './service/store/store.ts';
import { SCOPES } from './service/scopes.ts';

/** The largest request body Astro reads at all; each route enforces its own smaller limit while reading. */
const MAX_REQUEST_BODY_BYTES = 16 * 1024 * 1024;

export interface RunningServer {
  port: number;
  /** Stops accepting, lets in-flight requests finish, writes the store, releases the data dir. */
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The host name of a request, lower-cased, without port; undefined when missing. */
function requestHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host?.toLowerCase();
  if (!host) return undefined;
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** On an empty store: org `default` (business) with one all-scopes key, to print once the server listens. */
async function bootstrap(store: Store): Promise<{ org: Org; key: string } | undefined> {
  if ((await store.listOrgs()).length > 0) return undefined;
  // Nodes starting together on one new database race here: one creates the org, the others see it taken.
  const org = await createOrg(store, 'default', 'business').catch((err: unknown) => {
    if (isFolioError(err) && err.code === 'name_taken') return undefined;
    throw err;
  });
  if (!org) return undefined;
  const { key } = await createKey(store, org.id, [...SCOPES], 'default');
  return { org, key };
}

/** The first start's key and the one-time link that makes its holder the console's first owner. */
function printFirstStart(key: string, link: string): void {
  const rule = '='.repeat(72);
  console.log(
    `${rule}\nFolio created the organization "default" (plan business) and its first API key,\n` +
      `with all scopes. It is shown only this once: store it now.\n\n  ${key}\n\n` +
      `Open this one-time link (valid 24 hours) to become the owner of "default" in the web console:\n\n  ${link}\n\n${rule}`,
  );
}

/** On every API answer, errors included, even those given outside the Astro handler. */
const API_HEAD = ['x-content-type-options', 'nosniff'];

/**
 * Where hosting reads live builds from, made here so that service never imports hosting
 * (docs/architecture.md, "Rooms"): the data dir, or object storage's files through this node's cache.
 */
function siteSourceOf(serving: BuildServing): SiteSource {
  return serving.kind === 'object' ? createObjectSiteSource(serving) : createDiskSiteSource(serving.dataDir);
}

function createRequestHandler(folio: Folio, astro: AstroHandler) {
  const { serviceDomain } = folio.config;
  const apiHosts = new Set(folio.config.apiHosts);
  const siteSuffix = `.${serviceDomain}`;
  const locals: App.Locals = { folio, api: { folio, match: createApiRouter() } };
  // The web console (src/console/): the same Astro handler, told that the request is the console's.
  const consoleLocals: App.Locals = { ...locals, console: true };
  const console_ = consoleHost(folio.config);
  const consoleAssets = createConsoleAssets(path.join(ROOT, SERVICE_OUT_DIR, 'client'));
  const sites = createSiteHandler(siteSourceOf(folio.builds.serving), folio.config.allowCode, folio.limiter);
  folio.deployments.onLiveChange((projectId) => sites.liveChanged(projectId));
  // Another node's publish (object storage: heard through the database).
  folio.builds.onLiveChange((projectId) => (projectId ? sites.liveChanged(projectId) : sites.forgetLiveBuilds()));
  // FOLIO_ROLES (docs/decisions.md#job-queue-and-node-roles): what this node answers. /healthz
  // answers on every node, so a load balancer can check a worker-only node too.
  const roles = new Set(folio.config.roles);
  const notServed = (res: ServerResponse, role: Role, extra?: readonly string[]) => writeResponse(errorResponse(new FolioError('not_found',
    `this Folio node does not serve the ${role} role (FOLIO_ROLES=${folio.config.roles.join(',')}): send the request to a node that does`)), res, { extra });

  /** `{label}.{service_domain}` names a site unless the label is reserved (api., www., …). */
  const isSiteHost = (host: string) => {
    if (!host.endsWith(siteSuffix)) return false;
    const label = host.slice(0, -siteSuffix.length);
    return !label.includes('.') && !RESERVED_SLUGS.has(label);
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    const host = requestHost(req) ?? '';
    let api = false;
    try {
      // Routing trusts Host only: X-Forwarded-Host is never consulted. The operator's API hosts
      // stay the API even if a project claimed one before it was listed in FOLIO_API_HOSTS.
      const isApiHost = host === serviceDomain || apiHosts.has(host);
      const project = isApiHost ? undefined : await folio.projects.findByHost(host);
      if (project) return roles.has('sites') ? sites.serve(project, req, res) : notServed(res, 'sites');
      // `{branch label}--{slug}.{domain}`: a preview (docs/decisions.md#continuous-deployment).
      const preview = isApiHost ? undefined : await folio.projects.findPreviewByHost(host);
      if (preview) return roles.has('sites') ? sites.serve(preview.project, req, res, preview.label) : notServed(res, 'sites');
      if (isSiteHost(host)) return roles.has('sites') ? sites.serve(undefined, req, res) : notServed(res, 'sites');
      if (host === console_ && !roles.has('console')) return notServed(res, 'console');
      if (host === console_) {
        if (await consoleAssets.serve(req, res)) return;
        // A fresh object per request: Astro hands it to the request as is, and the console's
        // middleware stores the request's session and form in it.
        // A path no route matches, or a failure: still a console page with the console's headers.
        return await astro(req, res, { ...consoleLocals }, () => consoleProblem(404));
      }
      api = true;
      if (!roles.has('api') && new URL(req.url ?? '/', 'http://folio').pathname !== '/healthz') return await notServed(res, 'api', API_HEAD);
      await astro(req, res, locals, () => errorResponse(new FolioError('not_found', 'no such route: the API lives under /v1')), API_HEAD);
    } catch (err) {
      const answer = toApiError(err); // logs what it does not know
      if (!res.headersSent) await writeResponse(host === console_ ? consoleProblem(answer.status === 404 ? 404 : 500) : errorResponse(answer), res, { extra: api ? API_HEAD : undefined });
      else res.destroy();
    }
  };
}

/** Starts the server on a data dir it locks for itself. */
export async function startServer(config: Config): Promise<RunningServer> {
  const lock = await acquireLockPatiently(config.dataDir, 'server', ['admin']);
  let store: Store | undefined;
  let builds: BuildStorage | undefined;
  try {
    let rateLimiter: RateLimiter;
    let content: ProjectContent;
    ({ store, rateLimiter, builds, content } = await openStorage(config));
    // Before the first request: what a crash interrupted is recorded and its leftovers removed.
    await recoverDeployments(config.dataDir, store, config.buildLeaseS * 1000, builds);
    const removed = await cleanCrashLeftovers(config.dataDir, store, config.keepBuilds, builds);
    if (removed.length > 0) console.log(`Folio removed ${removed.length} leftover(s) of an interrupted run (temporary files, unfinished builds, empty folders).`);
    const created = await bootstrap(store);
    const { app } = (await import(pathToFileURL(SERVICE_ENTRY).href)) as { app: AstroApp };

    const server = http.createServer();
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    const port = (server.address() as AddressInfo).port;
    const folio = createFolio({ ...config, port }, store, {}, rateLimiter, builds, content);
    const handle = createRequestHandler(folio, await createAstroHandler(app, MAX_REQUEST_BODY_BYTES));
    if (created) printFirstStart(created.key, `${consoleOrigin(folio.config)}/invite/${await folio.accounts.firstOwnerLink(created.org)}`);
    let stopping = false;
    // Requests still being handled: a client that hung up closes its connection, but its request
    // runs on, and must finish before the store closes.
    const handling = new Set<Promise<void>>();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      // While stopping, finished requests must not keep their connection open.
      if (stopping) res.setHeader('connection', 'close');
      const handled = handle(req, res);
      handling.add(handled);
      const done = () => void handling.delete(handled);
      handled.then(done, done);
    });
    const closeAdmin = await serveAdminChannel(config.dataDir, folio.admin);
    // On a worker node: checks the build sandbox, then queued deployments resume.
    await folio.deployments.start({ runBuilds: config.roles.includes('worker') });
    folio.webhooks.start(); // pending event deliveries resume
    await folio.customDomains.start();

    return {
      port,
      async stop() {
        stopping = true;
        const closed = new Promise((resolve) => server.close(resolve));
        // close() drops idle keep-alive connections once; requests in flight now finish later.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        await Promise.all([closed, closeAdmin()]);
        clearInterval(sweep);
        await Promise.allSettled(handling);
        await folio.close();
        await lock.release();
      },
    };
  } catch (err) {
    await builds?.close();
    await store?.close();
    await lock.release();
    throw err;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Folio cannot start: ${err.message}`);
    process.exit(2);
  }
  let running: RunningServer;
  try {
    running = await startServer(config);
  } catch (err) {
    if (err instanceof StoreDamagedError) {
      console.error(`Folio cannot start: ${err.message}. ${err.advice}`);
      process.exit(1);
    }
    if (err instanceof ObjectStorageError) {
      console.error(`Folio cannot start: ${err.message}.`);
      process.exit(1);
    }
    if (err instanceof LockHeldError) {
      console.error(`Folio cannot start: ${err.message}. Only one server may use a data dir; stop the other one or set FOLIO_DATA_DIR.`);
      process.exit(1);
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`Folio cannot start: cannot listen on ${config.host}:${config.port} (${code}); set PORT or HOST.`);
      process.exit(1);
    }
    throw err;
  }
  console.log(`Folio listening on http://${config.host}:${running.port} (data dir ${config.dataDir}, service domain ${config.serviceDomain}, roles ${config.roles.join(',')})`);
  console.log(`Web console: ${consoleOrigin({ ...config, port: running.port })}/ (people join by invite: Settings → Members, or npm run admin -- user create --org default --email someone@example.com)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Folio: ${signal} received, finishing in-flight requests…`);
    const force = setTimeout(() => {
      console.error('Folio: requests did not finish in 10 s; exiting.');
      process.exit(1);
    }, 10_000);
    force.unref();
    await running.stop();
    console.log('Folio stopped.');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

export { main };

// The /v1 route table. A later resource adds its routes here (one entry per endpoint).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { deploymentRoutes } from './deployments.ts';
import { pageRoutes } from './pages.ts';
import { projectRoutes } from './projects.ts';
import { siteFileRoutes } from './site-files.ts';
import { webhookRoutes } from './webhooks.ts';
import type { Scope } from '../service/scopes.ts';
import { createRouter, type Method, type Route } from './router.ts';

/**
 * GET /v1/openapi.json: the API's own OpenAPI 3.1 description, read from disk on each request. The
 * file ships with the server, so failing to read it is a server fault (500), not a missing route.
 */
function openapiRoute(file: string): Route {
  return {
    method: 'GET',
    path: '/v1/openapi.json',
    scope: null,
    async handler() {
      const text = await readFile(file, 'utf8');
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
  };
}

function apiRoutes(openapiFile: string): Route[] {
  return [openapiRoute(openapiFile), ...projectRoutes, ...pageRoutes, ...deploymentRoutes, ...siteFileRoutes, ...webhookRoutes];
}

/** The API's OpenAPI document, served at GET /v1/openapi.json. */
export const OPENAPI_FILE = fileURLToPath(new URL('./openapi.json', import.meta.url));

/** Builds the router for the API; `openapiFile`: the document GET /v1/openapi.json serves. */
export function createApiRouter(openapiFile = OPENAPI_FILE) {
  return createRouter(apiRoutes(openapiFile));
}

/** What a test needs to hold the OpenAPI document to the route table: method, path pattern, scope, body limit. */
export function listApiRoutes(): { method: Method; path: string; scope: Scope | null; maxBodyBytes?: number }[] {
  return apiRoutes('').map(({ method, path, scope, body }) => ({ method, path, scope, maxBodyBytes: body?.maxBytes }));
}

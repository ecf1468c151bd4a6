// The /v1 route table. A later resource adds its routes here (one entry per endpoint).
import { readFile } from 'node:fs/promises';
import { deploymentRoutes } from './deployments.ts';
import { ApiError } from './http.ts';
import { pageRoutes } from './pages.ts';
import { projectRoutes } from './projects.ts';
import { createRouter, type Route } from './router.ts';

/** GET /v1/openapi.json: the API's own OpenAPI 3.1 description, read from disk on each request. */
function openapiRoute(file: string): Route {
  return {
    method: 'GET',
    path: '/v1/openapi.json',
    scope: null,
    async handler() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        throw new ApiError(404, 'not_found', 'the OpenAPI description is not available');
      }
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
  };
}

/** Builds the router for the API; `openapiFile` is the path of src/api/openapi.json. */
export function createApiRouter(openapiFile: string) {
  return createRouter([openapiRoute(openapiFile), ...projectRoutes, ...pageRoutes, ...deploymentRoutes]);
}

// Every /v1 request: handed to the pipeline with the services the server put in `locals`.
import type { APIRoute } from 'astro';
import { jsonResponse } from '../http.ts';
import { handleApiRequest, type PipelineDeps } from '../pipeline.ts';
import { createApiRouter } from '../routes.ts';

export const prerender = false;

let deps: PipelineDeps | undefined;

export const ALL: APIRoute = ({ request, url, locals, clientAddress }) => {
  const { folio, openapiFile } = locals;
  if (!folio) {
    return jsonResponse(500, { error: 'internal_error', message: 'the API runs only under src/server.ts (npm start)' });
  }
  if (deps?.folio !== folio) deps = { folio, match: createApiRouter(openapiFile) };
  return handleApiRequest(deps, request, url, clientAddress);
};

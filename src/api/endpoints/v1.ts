// Every /v1 request: handed to the pipeline with what the server made once at start (`locals.api`).
// In production the adapter calls this handler itself (src/api/serve-astro.ts): it reads only the
// context fields ServiceEndpoint lists.
import type { APIRoute } from 'astro';
import { handleApiRequest } from '../pipeline.ts';
import type { ServiceEndpoint } from '../serve-astro.ts';

export const prerender = false;

export const ALL = (({ request, url, locals, clientAddress }) => handleApiRequest(locals.api, request, url, clientAddress)) satisfies ServiceEndpoint satisfies APIRoute;

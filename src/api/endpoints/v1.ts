// Every /v1 request: handed to the pipeline with what the server made once at start (`locals.api`).
import type { APIRoute } from 'astro';
import { handleApiRequest } from '../pipeline.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request, url, locals, clientAddress }) => handleApiRequest(locals.api, request, url, clientAddress);

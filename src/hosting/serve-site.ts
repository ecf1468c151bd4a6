// Serving a project's live site on its own host. Until the "sync, deployments and live sites"
// issue publishes sites, every project host answers a 404 page: this is the seam it fills in.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProjectRecord } from '../service/store.ts';

const NOT_DEPLOYED = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>404: nothing deployed here yet</h1><p>This documentation site has no successful deployment.</p></body></html>
`;

export const NO_SITE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>404: no site here</h1><p>No documentation site is served on this address.</p></body></html>
`;

/** Answers a request for a project's site (`project` undefined: a site host with no project). */
export function serveSite(project: ProjectRecord | undefined, req: IncomingMessage, res: ServerResponse): void {
  const body = project ? NOT_DEPLOYED : NO_SITE;
  res.writeHead(404, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

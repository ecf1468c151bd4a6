// `folio deploy`: what a docs repository's CI job calls (content/authoring/cli.mdx). It speaks
// Folio's public API only (content/api/deployments.mdx), as any client would: the key in
// FOLIO_API_KEY, the server in FOLIO_URL. It triggers a deployment, and with --wait follows its log
// (`…/log?follow=1`, which ends when the deployment does) and exits with its outcome.
import { UsageError } from './args.ts';

export interface DeployOptions {
  /** FOLIO_URL, e.g. `https://folio.example.com`. */
  url?: string;
  /** FOLIO_API_KEY. */
  key?: string;
  /** `--project`: a project's id or slug; else the only project the key can see. */
  project?: string;
  wait: boolean;
  /** Where the log and progress lines go (the terminal). */
  write(text: string): void;
}

/** An answer of the API that is not a success, as the API words it. */
export class ApiError extends Error {
  override name = 'ApiError';
}

interface Deployment {
  id: string;
  status: 'queued' | 'building' | 'succeeded' | 'failed' | 'canceled';
  url?: string;
  error?: { code: string; message: string };
}

interface Project {
  id: string;
  slug: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function api(base: string, key: string) {
  return async (method: string, pathname: string): Promise<Response> => {
    let response: Response;
    try {
      response = await fetch(new URL(pathname, base), { method, headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/plain' } });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError(`cannot reach FOLIO_URL ${base} (${cause?.code ?? cause?.message ?? (error as Error).message})`);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => undefined)) as { error?: string; message?: string } | undefined;
      throw new ApiError(`${method} ${pathname} answered ${response.status}${body?.error ? ` ${body.error}: ${body.message}` : ''}`);
    }
    return response;
  };
}

/** The project `--project` names (id or slug), or the only one the key can see. */
async function findProject(call: ReturnType<typeof api>, wanted: string | undefined): Promise<string> {
  if (wanted && UUID.test(wanted)) return wanted;
  const projects: Project[] = [];
  for (let cursor: string | null = null; ; ) {
    const page = (await (await call('GET', `/v1/projects?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json()) as { data: Project[]; next_cursor: string | null };
    projects.push(...page.data);
    const found = wanted && page.data.find((p) => p.slug === wanted);
    if (found) return found.id;
    if (!(cursor = page.next_cursor)) break;
  }
  if (wanted) throw new UsageError(`--project: no project with the slug or id ${JSON.stringify(wanted)} for this key (its projects: ${projects.map((p) => p.slug).join(', ') || 'none'})`);
  if (projects.length === 1) return projects[0].id;
  throw new UsageError(projects.length ? `this key sees ${projects.length} projects: name one with --project <slug|id> (${projects.map((p) => p.slug).join(', ')})` : 'this key sees no project: create one first (content/api/projects.mdx)');
}

/** Triggers a deployment; with `wait`, streams its log and returns 0 when it succeeded, else 1. */
export async function deploy(options: DeployOptions): Promise<number> {
  if (!options.url) throw new UsageError('FOLIO_URL is not set: set it to your Folio server, e.g. FOLIO_URL=https://folio.example.com');
  if (!options.key) throw new UsageError('FOLIO_API_KEY is not set: set it to an API key with the deployments:trigger scope (and deployments:read for --wait)');
  let base: URL;
  try {
    base = new URL(options.url);
  } catch {
    throw new UsageError(`FOLIO_URL ${JSON.stringify(options.url)} is not a URL: write it as https://folio.example.com`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new UsageError(`FOLIO_URL must start with https:// or http:// (got ${JSON.stringify(options.url)})`);
  const call = api(base.href, options.key);
  const projectId = await findProject(call, options.project);
  const deployments = `/v1/projects/${encodeURIComponent(projectId)}/deployments`;
  const queued = (await (await call('POST', deployments)).json()) as Deployment;
  options.write(`deployment ${queued.id} ${queued.status}\n`);
  if (!options.wait) return 0;
  const log = await call('GET', `${deployments}/${queued.id}/log?follow=1`);
  const decoder = new TextDecoder();
  for await (const chunk of log.body ?? []) options.write(decoder.decode(chunk as Uint8Array, { stream: true }));
  options.write(decoder.decode());
  // Every line is in the log before the deployment's status says it ended (content/api/deployments.mdx).
  // A log cut short (a proxy's timeout) is not the end: the deployment's status says when it is.
  let ended = (await (await call('GET', `${deployments}/${queued.id}`)).json()) as Deployment;
  while (ended.status === 'queued' || ended.status === 'building') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    ended = (await (await call('GET', `${deployments}/${queued.id}`)).json()) as Deployment;
  }
  if (ended.status === 'succeeded') {
    options.write(`deployment ${ended.id} succeeded${ended.url ? `: ${ended.url}` : ''}\n`);
    return 0;
  }
  options.write(`deployment ${ended.id} ${ended.status}${ended.error ? `: ${ended.error.code}: ${ended.error.message}` : ''}\n`);
  return 1;
}

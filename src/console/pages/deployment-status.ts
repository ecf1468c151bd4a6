// GET …/deployments/{id}/status.json: what the log follower reads (status, error, progress, log) for the
// signed-in user's organization; another org's deployment is 404.
import type { APIRoute } from 'astro';
import { jsonResponse } from '../../api/http.ts';
import { problem } from '../forms.ts';

export const prerender = false;

export const GET: APIRoute = async ({ locals, params }) => {
  const { folio, signedIn } = locals;
  const orgId = signedIn!.org.id;
  try {
    const deployment = await folio.deployments.get(orgId, params.id ?? '', params.deployment ?? '');
    const log = await folio.deployments.log(orgId, deployment.project_id, deployment.id);
    return jsonResponse(200, { status: deployment.status, error: deployment.error ?? null, started_at: deployment.started_at ?? null, finished_at: deployment.finished_at ?? null, progress: deployment.progress ?? null, log });
  } catch (err) {
    const p = problem(err);
    return jsonResponse(p.status, { error: p.code, message: p.message });
  }
};

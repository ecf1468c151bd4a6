// src/api/openapi.json describes Folio's own API completely (issue 6 point 3): every endpoint of
// docs/decisions.md#scopes with its scope, the §3 errors, the §5 rate-limit headers, the §6–8 objects.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, loadOpenApiPages } from '../../src/site/openapi/index.ts';
import type { OpenApiPages } from '../../src/site/openapi/index.ts';
import { apiDocument, pointer, schemaErrors } from '../helpers/api-contract.ts';

const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../src/api');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let doc: Json;
let pages: OpenApiPages;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = () =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op: item[method] as Json })),
  );

// docs/decisions.md#scopes, in its words.
const SCOPES: Record<string, string | null> = {
  'GET /v1/projects': 'projects:read',
  'GET /v1/projects/{id}': 'projects:read',
  'POST /v1/projects': 'projects:write',
  'PATCH /v1/projects/{id}': 'projects:write',
  'DELETE /v1/projects/{id}': 'projects:write',
  'POST /v1/projects/{id}/custom-domain/verify': 'projects:write',
  'GET /v1/projects/{id}/pages': 'pages:read',
  'GET /v1/projects/{id}/pages/{path}': 'pages:read',
  'POST /v1/projects/{id}/pages': 'pages:write',
  'PATCH /v1/projects/{id}/pages/{path}': 'pages:write',
  'DELETE /v1/projects/{id}/pages/{path}': 'pages:write',
  'GET /v1/projects/{id}/docs-json': 'pages:read',
  'PUT /v1/projects/{id}/docs-json': 'pages:write',
  'DELETE /v1/projects/{id}/docs-json': 'pages:write',
  'GET /v1/projects/{id}/snippets': 'pages:read',
  'GET /v1/projects/{id}/snippets/{path}': 'pages:read',
  'PUT /v1/projects/{id}/snippets/{path}': 'pages:write',
  'DELETE /v1/projects/{id}/snippets/{path}': 'pages:write',
  'GET /v1/projects/{id}/deployments': 'deployments:read',
  'GET /v1/projects/{id}/deployments/{deployment_id}': 'deployments:read',
  'GET /v1/projects/{id}/deployments/{deployment_id}/log': 'deployments:read',
  'POST /v1/projects/{id}/deployments': 'deployments:trigger',
  'POST /v1/projects/{id}/deployments/{deployment_id}/promote': 'deployments:trigger',
  'POST /v1/projects/{id}/deployments/{deployment_id}/cancel': 'deployments:trigger',
  'POST /v1/projects/{id}/webhook-secret': 'projects:write',
  'POST /v1/projects/{id}/webhooks': 'projects:write',
  'GET /v1/projects/{id}/webhooks': 'projects:read',
  'DELETE /v1/projects/{id}/webhooks/{webhook_id}': 'projects:write',
  'GET /v1/projects/{id}/webhooks/{webhook_id}/deliveries': 'projects:read',
  'POST /hooks/git/{project_id}': null,
  'GET /v1/openapi.json': null,
  'GET /healthz': null,
  'GET /internal/tls-allowed': null,
};

/** Endpoints outside /v1: no key, no rate limit, no rate-limit headers. */
const OUTSIDE_V1: Record<string, string[]> = {
  '/healthz': ['200', '503'],
  '/internal/tls-allowed': ['200', '400', '404'],
  // Authenticated by the delivery's signature (docs/decisions.md#continuous-deployment), rate limited per project.
  '/hooks/git/{project_id}': ['202', '400', '401', '413', '429', '500', '507'],
};

const ERROR_CODES = [
  'invalid_request', 'unauthorized', 'insufficient_scope', 'not_found', 'method_not_allowed', 'slug_taken', 'domain_taken',
  'page_exists', 'source_managed', 'content_too_complex', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'insufficient_storage',
  'internal_error', 'not_promotable', 'not_cancelable',
];

beforeAll(async () => {
  doc = (await loadOpenApiDocument(API_DIR, 'openapi.json')).document as Json;
  pages = await loadOpenApiPages(API_DIR, 'openapi.json', { prefix: 'api-reference' });
});

describe("Folio's OpenAPI document", () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(join(API_DIR, 'openapi.json'));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes exactly the endpoints of docs/decisions.md#scopes, each with its scope in security and x-scopes', () => {
    const found = Object.fromEntries(
      operations().map(({ key, op }) => [key, op.security.length === 0 ? null : op.security[0].bearerAuth[0]]),
    );
    expect(found).toEqual(SCOPES);
    for (const { key, op } of operations()) {
      const scope = SCOPES[key];
      expect(op['x-scopes'], key).toEqual(scope ? [scope] : []);
      expect(op.security, key).toEqual(scope ? [{ bearerAuth: [scope] }] : []);
    }
    const scheme = doc.components.securitySchemes.bearerAuth;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const scope of new Set(Object.values(SCOPES).filter(Boolean))) expect(scheme.description).toContain(`\`${scope}\``);
  });

  it('has readable operationIds and the five tags', () => {
    expect(doc.tags.map((tag: Json) => tag.name)).toEqual(['Projects', 'Pages', 'Site files', 'Deployments', 'Meta']);
    expect(operations().map(({ op }) => op.operationId).sort()).toEqual([
      'cancelDeployment', 'checkTlsAllowed', 'createPage', 'createProject', 'createWebhook', 'deleteDocsJson', 'deletePage',
      'deleteProject', 'deleteSnippet', 'deleteWebhook', 'getApiDescription', 'getDeployment', 'getDeploymentLog', 'getDocsJson',
      'getHealth', 'getPage', 'getProject', 'getSnippet', 'listDeployments', 'listPages', 'listProjects', 'listSnippets',
      'listWebhookDeliveries', 'listWebhooks', 'promoteDeployment', 'putDocsJson', 'putSnippet', 'receivePush', 'rotateWebhookSecret',
      'triggerDeployment', 'updatePage', 'updateProject', 'verifyCustomDomain',
    ]);
  });

  it('lists on each endpoint the statuses docs/decisions.md#http-conventions gives it', () => {
    for (const { key, path, method, op } of operations()) {
      const statuses = Object.keys(op.responses);
      if (OUTSIDE_V1[path]) {
        expect(statuses, key).toEqual(OUTSIDE_V1[path]);
        continue;
      }
      expect(statuses, key).toEqual(expect.arrayContaining(['429', '500']));
      if (SCOPES[key]) expect(statuses, key).toEqual(expect.arrayContaining(['401', '403']));
      if (path.includes('{id}')) expect(statuses, key).toContain('404');
      if (op.requestBody) expect(statuses, key).toEqual(expect.arrayContaining(['400', '413', '415']));
      // Every write may meet a full disk (issue 17): 507 insufficient_storage.
      if (method !== 'get') expect(statuses, key).toContain('507');
      if (op.parameters?.some((p: Json) => p.name === 'limit')) expect(statuses, key).toContain('400');
      if (method === 'delete') expect(op.responses['204'].content, key).toBeUndefined();
    }
    const statusOf = (key: string) => Object.keys(operations().find((o) => o.key === key)!.op.responses).filter((s) => s < '300');
    expect(statusOf('POST /v1/projects')).toEqual(['201']);
    expect(statusOf('POST /v1/projects/{id}/deployments')).toEqual(['202']);
    expect(statusOf('POST /v1/projects/{id}/pages')).toEqual(['201']);
    expect(statusOf('POST /v1/projects/{id}/webhooks')).toEqual(['201']);
    expect(statusOf('POST /hooks/git/{project_id}')).toEqual(['202']);
    const conflicts = (key: string) => Object.keys(operations().find((o) => o.key === key)!.op.responses['409'].content['application/json'].examples);
    expect(conflicts('POST /v1/projects')).toEqual(['slug_taken', 'domain_taken']);
    expect(conflicts('PATCH /v1/projects/{id}')).toEqual(['domain_taken', 'api_host']);
    expect(conflicts('POST /v1/projects/{id}/pages')).toEqual(['page_exists', 'source_managed']);
    expect(conflicts('PATCH /v1/projects/{id}/pages/{path}')).toEqual(['source_managed']);
    expect(conflicts('DELETE /v1/projects/{id}/pages/{path}')).toEqual(['source_managed']);
    const deploymentConflicts = Object.keys(doc.components.responses.DeploymentConflict.content['application/json'].examples);
    expect(deploymentConflicts).toEqual(['not_promotable', 'not_cancelable']);
  });

  it('puts the rate-limit headers on every /v1 response, Retry-After on 429 and WWW-Authenticate on 401', () => {
    for (const { key, path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const headers = Object.keys(response.headers ?? {});
        if (OUTSIDE_V1[path]) {
          // No rate-limit headers outside /v1 (the push webhook's own limit says when in its message).
          expect(headers, `${key} ${status}`).toEqual([]);
          continue;
        }
        expect(headers, `${key} ${status}`).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
        if (status === '429') expect(headers, key).toContain('Retry-After');
        if (status === '401') expect(response.headers['WWW-Authenticate'].schema.const, key).toBe('Bearer');
      }
    }
  });

  it('lists pagination parameters on every list endpoint', () => {
    for (const key of ['GET /v1/projects', 'GET /v1/projects/{id}/pages', 'GET /v1/projects/{id}/deployments', 'GET /v1/projects/{id}/webhooks/{webhook_id}/deliveries']) {
      const { op } = operations().find((o) => o.key === key)!;
      expect(op.parameters.map((p: Json) => [p.name, p.in, p.schema]), key).toEqual([
        ['limit', 'query', { type: 'integer', minimum: 1, maximum: 100, default: 20 }],
        ['cursor', 'query', { type: 'string', minLength: 1 }],
      ]);
    }
  });
});

describe('schemas of projects, pages and deployments (docs/decisions.md#projects, #pages, #deployments)', () => {
  const schema = (name: string) => doc.components.schemas[name];

  it('Project: required and optional fields, status enum, field rules', () => {
    const project = schema('Project');
    expect(project.required.sort()).toEqual(['allow_code', 'created_at', 'id', 'name', 'previews', 'slug', 'status', 'url']);
    expect(Object.keys(project.properties).sort()).toEqual([
      'allow_code', 'created_at', 'custom_domain', 'custom_domain_checked_at', 'custom_domain_status', 'custom_domain_verification', 'id',
      'last_deploy_at', 'name', 'preview_branches', 'previews', 'slug', 'source_branch', 'source_repo', 'status', 'url',
    ]);
    expect(project.properties.custom_domain_status.enum).toEqual(['pending', 'verified', 'failed']);
    expect(project.properties.status.enum).toEqual(['pending', 'building', 'active', 'failed']);
    expect(project.properties.name).toMatchObject({ minLength: 1, maxLength: 80 });
    expect(project.properties.id.format).toBe('uuid');
    expect(project.properties.created_at.format).toBe('date-time');
    expect(schema('ProjectCreate').required).toEqual(['name', 'slug']);
    expect(schema('ProjectCreate').properties.allow_code.type).toBe('boolean');
    expect(schema('ProjectUpdate').properties.allow_code.type).toBe('boolean');
    expect(schema('ProjectUpdate').properties.custom_domain.type).toEqual(['string', 'null']);
    expect(schema('ProjectUpdate').properties.slug).toBeUndefined();
  });

  it('slug, source_repo, custom_domain and page path patterns accept and refuse what the contract says', () => {
    const matches = (pattern: string, value: string) => new RegExp(pattern, 'u').test(value);
    const slug = schema('Project').properties.slug.pattern;
    for (const ok of ['acme', 'a', 'my-docs-2', 'a'.repeat(63)]) expect(matches(slug, ok), ok).toBe(true);
    for (const bad of ['Acme', '-acme', 'acme-', 'a'.repeat(64), 'xn--acme', 'ac_me', '']) expect(matches(slug, bad), bad).toBe(false);
    const repo = schema('Project').properties.source_repo.pattern;
    for (const ok of ['acme/docs', 'a-b/c.d_e-f']) expect(matches(repo, ok), ok).toBe(true);
    for (const bad of ['acme', 'acme/docs.git', 'acme/..', 'https://github.com/acme/docs', 'a_b/docs']) expect(matches(repo, bad), bad).toBe(false);
    const domain = schema('Project').properties.custom_domain.pattern;
    for (const ok of ['docs.acme.com', 'a.io']) expect(matches(domain, ok), ok).toBe(true);
    for (const bad of ['localhost', 'Docs.acme.com', 'docs.acme.com:8080', 'https://docs.acme.com', '-a.com']) expect(matches(domain, bad), bad).toBe(false);
    const pagePath = schema('PageCreate').properties.path.pattern;
    for (const ok of ['index', 'guides/install', 'a/b/c/d/e/f/g/h']) expect(matches(pagePath, ok), ok).toBe(true);
    for (const bad of ['a/b/c/d/e/f/g/h/i', 'Guides', '/index', 'guides/', '_x', 'a//b']) expect(matches(pagePath, bad), bad).toBe(false);
  });

  it('Page, Deployment and Error objects', () => {
    expect(schema('Page').required.sort()).toEqual(['content', 'path', 'source', 'title', 'updated_at', 'url']);
    expect(schema('PageSummary').properties.content).toBeUndefined();
    expect(schema('Page').properties.source.enum).toEqual(['repository', 'api']);
    expect(schema('PageCreate').required).toEqual(['path', 'title', 'content']);
    const deployment = schema('Deployment');
    expect(deployment.properties.status.enum).toEqual(['queued', 'building', 'succeeded', 'failed', 'canceled']);
    expect(deployment.properties.trigger.enum).toEqual(['manual', 'connect', 'push', 'poll', 'promote']);
    expect(Object.keys(deployment.properties).sort()).toEqual([
      'branch', 'commit_sha', 'created_at', 'error', 'finished_at', 'full_build', 'id', 'page_count', 'preview_url', 'progress', 'project_id', 'promoted_from', 'source_branch',
      'started_at', 'status', 'trigger', 'url', 'warnings',
    ]);
    expect(schema('DeploymentError').properties.code.enum).toEqual(['sync_failed', 'build_failed', 'no_pages', 'timeout', 'interrupted', 'disk_full', 'sandbox_unavailable']);
    expect(schema('Error').required).toEqual(['error', 'message']);
    expect(schema('Error').properties.error.enum).toEqual(ERROR_CODES);
    for (const list of ['ProjectList', 'PageList', 'DeploymentList', 'DeliveryList']) {
      expect(schema(list).required, list).toEqual(['data', 'next_cursor']);
      expect(schema(list).properties.next_cursor.type, list).toEqual(['string', 'null']);
    }
  });

  it('every example validates against its schema', () => {
    let checked = 0;
    const check = (where: string, schemaAt: string, value: unknown) => {
      expect(schemaErrors(schemaAt, value), where).toEqual([]);
      checked += 1;
    };
    for (const [name, component] of Object.entries(doc.components.schemas as Json)) {
      if ('example' in component) check(`schema ${name}`, pointer('components', 'schemas', name), component.example);
    }
    // Media types, parameters and headers, where they are written (not through their $refs).
    const visit = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const object = node as Json;
      if (object.schema && typeof object.schema === 'object') {
        if ('example' in object) check(at, `${at}/schema`, object.example);
        for (const [name, example] of Object.entries((object.examples ?? {}) as Json)) check(`${at} ${name}`, `${at}/schema`, example.value);
      }
      for (const [key, child] of Object.entries(object)) if (key !== 'schema') visit(child, `${at}${pointer(key)}`);
    };
    visit(apiDocument().paths, pointer('paths'));
    for (const section of ['responses', 'parameters', 'headers', 'requestBodies']) visit(apiDocument().components[section], pointer('components', section));
    expect(checked).toBeGreaterThan(30);
  });
});

describe("Folio's own API reference pages", () => {
  it('generates one page per endpoint, grouped by the five tags', () => {
    expect(pages.pages).toHaveLength(Object.keys(SCOPES).length);
    expect(pages.groups.map((group) => [group.label, group.items.length])).toEqual([
      ['Projects', 6], ['Pages', 5], ['Site files', 7], ['Deployments', 12], ['Meta', 3],
    ]);
    const create = pages.pages.find((page) => page.operationId === 'createProject')!;
    expect(create).toMatchObject({ path: 'api-reference/projects/create-a-project', method: 'post', title: 'Create a project', scopes: ['projects:write'] });
    expect(create.curl).toContain("curl -X POST 'http://localhost:4321/v1/projects'");
    expect(create.curl).toContain("-H 'Authorization: Bearer <token>'");
    const page = pages.pages.find((p) => p.operationId === 'getPage')!;
    expect(page.curl).toContain('/v1/projects/3fa85f64-5717-4562-b3fc-2c963f66afa6/pages/guides/install');
  });
});

// Verified custom domains over HTTP (issue 15 item 7): a real server resolving against a real DNS
// server on UDP that the test edits (FOLIO_DNS_SERVERS), a real deployment, requests with Host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, deploy, serverSeries } from '../helpers/deployments.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { client, getWithHost, orgWithKey, removeDir, startServer, uniqueSlug, type TestServer } from '../helpers/server.ts';

type Api = ReturnType<typeof client>;

const API_HOST = 'api.folio-operator.test';
const SITE_HOST = 'a site host, outside the API contract';

let dns: TestDnsServer;
let server: TestServer;
let api: Api;
let project: { id: string; slug: string };

/** A project with one page, deployed, so that a host either serves its page or does not. */
async function deployedProject(as: Api, text: string): Promise<{ id: string; slug: string }> {
  const created = await as('POST', '/v1/projects', { body: { name: 'Domains', slug: uniqueSlug('dom') } });
  expect(created.status).toBe(201);
  const page = await as('POST', `/v1/projects/${created.body.id}/pages`, { body: { path: 'index', title: 'Home', content: text } });
  expect(page.status).toBe(201);
  expect(await deploy(as, created.body.id)).toMatchObject({ status: 'succeeded' });
  return { id: created.body.id, slug: created.body.slug };
}

const site = (host: string, base = server.url) => getWithHost(base, '/', host, {}, SITE_HOST);
const tlsAllowed = (domain: string | undefined, base = server.url) =>
  getWithHost(base, domain === undefined ? '/internal/tls-allowed' : `/internal/tls-allowed?domain=${encodeURIComponent(domain)}`, '127.0.0.1');

/** Publishes or removes the TXT record a project's verification asks for. */
function publish(record: { name: string; value: string }): void {
  dns.txt.set(record.name, [record.value]);
}

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startServer({ env: { FOLIO_DNS_SERVERS: dns.address, FOLIO_API_HOSTS: `${API_HOST},folio.operator.test` } });
  api = client(server.url, server.defaultKey);
  project = await deployedProject(api, 'The verified home page.');
});
afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir ?? '');
  await dns?.close();
});

describe('a custom domain is served only while its TXT record proves it', () => {
  it('pending and not served → record added, verified and served → record removed, failed and not served', async () => {
    const domain = `${uniqueSlug('docs')}.verify.example`;
    const set = await api('PATCH', `/v1/projects/${project.id}`, { body: { custom_domain: domain } });
    expect(set.status).toBe(200);
    expect(set.body.custom_domain_status).toBe('pending');
    expect(set.body.custom_domain_verification).toEqual({ type: 'TXT', name: `_folio-verify.${domain}`, value: expect.stringMatching(/^folio-verify=[A-Za-z0-9_-]{24}$/) });
    const record = set.body.custom_domain_verification;

    // Not served: the host is no site (the API answers it, as any unknown host) and gets no certificate.
    let res = await site(domain);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('The verified home page.');
    expect((await tlsAllowed(domain)).status).toBe(404);
    // Still pending after a check that finds nothing.
    let verified = await api('POST', `/v1/projects/${project.id}/custom-domain/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body.custom_domain_status).toBe('pending');
    expect(verified.body.custom_domain_checked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    publish(record);
    verified = await api('POST', `/v1/projects/${project.id}/custom-domain/verify`);
    expect(verified.body).toMatchObject({ custom_domain: domain, custom_domain_status: 'verified', custom_domain_verification: record });
    expect((await api('GET', `/v1/projects/${project.id}`)).body.custom_domain_status).toBe('verified');
    for (const host of [domain, `${domain.toUpperCase()}:8080`]) {
      res = await site(host);
      expect(res.status, host).toBe(200);
      expect(articleOf(res.text)).toContain('The verified home page.');
    }
    expect((await tlsAllowed(domain)).status).toBe(200);
    expect(JSON.parse((await tlsAllowed(domain.toUpperCase())).text)).toEqual({ domain, allowed: true });

    // A resolver that fails gives no answer: the status stays as it was.
    dns.failing.add(record.name);
    const checkedAt = verified.body.custom_domain_checked_at;
    const unanswered = await api('POST', `/v1/projects/${project.id}/custom-domain/verify`);
    expect(unanswered.body).toMatchObject({ custom_domain_status: 'verified', custom_domain_checked_at: checkedAt });
    dns.failing.delete(record.name);

    dns.txt.delete(record.name);
    const failed = await api('POST', `/v1/projects/${project.id}/custom-domain/verify`);
    expect(failed.body.custom_domain_status).toBe('failed');
    res = await site(domain);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('The verified home page.');
    expect((await tlsAllowed(domain)).status).toBe(404);

    // The record back: verified again.
    publish(record);
    expect((await api('POST', `/v1/projects/${project.id}/custom-domain/verify`)).body.custom_domain_status).toBe('verified');
    expect((await site(domain)).status).toBe(200);
    // Removing the domain stops serving it at once.
    const removed = await api('PATCH', `/v1/projects/${project.id}`, { body: { custom_domain: null } });
    for (const field of ['custom_domain', 'custom_domain_status', 'custom_domain_verification', 'custom_domain_checked_at']) expect(removed.body).not.toHaveProperty(field);
    expect((await site(domain)).status).toBe(404);
  });

  it('looks again every few seconds after a domain is set: publishing the record is enough', async () => {
    // This server checks every domain only every 300 s: the follow-up checks of a new domain verify it.
    const created = (await api('POST', '/v1/projects', { body: { name: 'Soon', slug: uniqueSlug('soon') } })).body;
    const domain = `${uniqueSlug('soon')}.verify.example`;
    const set = await api('PATCH', `/v1/projects/${created.id}`, { body: { custom_domain: domain } });
    expect(set.body.custom_domain_status).toBe('pending');
    publish(set.body.custom_domain_verification);
    expect(await statusOnceSettled(api, created.id, 'verified')).toBe('verified');
  });

  it('gives each new domain of a project a new token; the same domain again keeps token and status', async () => {
    const created = (await api('POST', '/v1/projects', { body: { name: 'Tokens', slug: uniqueSlug('tok'), custom_domain: `${uniqueSlug('t')}.token.example` } })).body;
    expect(created.custom_domain_status).toBe('pending');
    const first = created.custom_domain_verification;
    const domain = `${uniqueSlug('t')}.token.example`;
    const changed = (await api('PATCH', `/v1/projects/${created.id}`, { body: { custom_domain: domain } })).body;
    expect(changed.custom_domain_verification.name).toBe(`_folio-verify.${domain}`);
    expect(changed.custom_domain_verification.value).not.toBe(first.value);
    publish(changed.custom_domain_verification);
    expect((await api('POST', `/v1/projects/${created.id}/custom-domain/verify`)).body.custom_domain_status).toBe('verified');
    const same = (await api('PATCH', `/v1/projects/${created.id}`, { body: { custom_domain: domain.toUpperCase(), name: 'Renamed' } })).body;
    expect(same).toMatchObject({ custom_domain_status: 'verified', custom_domain_verification: changed.custom_domain_verification });
    await api('PATCH', `/v1/projects/${created.id}`, { body: { custom_domain: null } });
    const again = (await api('PATCH', `/v1/projects/${created.id}`, { body: { custom_domain: domain } })).body;
    // A new claim: the old record proves nothing until the new token is published.
    expect(again.custom_domain_status).toBe('pending');
    expect(again.custom_domain_verification.value).not.toBe(changed.custom_domain_verification.value);
    expect((await api('POST', `/v1/projects/${created.id}/custom-domain/verify`)).body.custom_domain_status).toBe('pending');
  });

  it('lets any project claim a domain nobody verified; the first to verify holds it and later claims are 409', async () => {
    const other = client(server.url, (await orgWithKey(server.dataDir, 'squatters')).key);
    const domain = `${uniqueSlug('claim')}.verify.example`;
    const squatter = (await other('POST', '/v1/projects', { body: { name: 'Squat', slug: uniqueSlug('sq'), custom_domain: domain } })).body;
    expect(squatter.custom_domain_status).toBe('pending');
    // A claim that is not verified cannot lock the owner out.
    const owner = await deployedProject(api, 'The owner of the domain.');
    const claimed = await api('PATCH', `/v1/projects/${owner.id}`, { body: { custom_domain: domain } });
    expect(claimed.status).toBe(200);
    publish(claimed.body.custom_domain_verification);
    expect((await api('POST', `/v1/projects/${owner.id}/custom-domain/verify`)).body.custom_domain_status).toBe('verified');
    expect(articleOf((await site(domain)).text)).toContain('The owner of the domain.');
    // The owner's record does not verify the other claim, and a new claim is refused.
    expect((await other('POST', `/v1/projects/${squatter.id}/custom-domain/verify`)).body.custom_domain_status).toBe('pending');
    const late = await other('POST', '/v1/projects', { body: { name: 'Late', slug: uniqueSlug('late'), custom_domain: domain } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: 'domain_taken', message: expect.stringContaining(domain) });
    const patched = await other('PATCH', `/v1/projects/${squatter.id}`, { body: { custom_domain: domain.toUpperCase() } });
    expect(patched.status).toBe(200); // its own claim, unchanged
    expect(patched.body.custom_domain_status).toBe('pending');
    // Deleting the owner frees the domain: its host answers no site at once.
    expect((await api('DELETE', `/v1/projects/${owner.id}`)).status).toBe(204);
    expect((await site(domain)).text).not.toContain('The owner of the domain.');
    expect((await tlsAllowed(domain)).status).toBe(404);
  });
});

describe('verify endpoint', () => {
  it('answers 400 for a project without a custom domain and 404 for another organization\'s project', async () => {
    const plain = (await api('POST', '/v1/projects', { body: { name: 'Plain', slug: uniqueSlug('plain') } })).body;
    const res = await api('POST', `/v1/projects/${plain.id}/custom-domain/verify`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('no custom_domain') });
    const stranger = client(server.url, (await orgWithKey(server.dataDir, 'strangers')).key);
    expect((await stranger('POST', `/v1/projects/${project.id}/custom-domain/verify`)).status).toBe(404);
    const readOnly = client(server.url, (await orgWithKey(server.dataDir, 'readers', 'business', 'projects:read')).key);
    expect((await readOnly('POST', `/v1/projects/${plain.id}/custom-domain/verify`)).status).toBe(403);
  });
});

describe('API hosts', () => {
  it('refuses FOLIO_API_HOSTS as custom domains (409 naming the host) and keeps answering the API on them', async () => {
    const created = await api('POST', '/v1/projects', { body: { name: 'Shadow', slug: uniqueSlug('shadow'), custom_domain: API_HOST.toUpperCase() } });
    expect(created.status).toBe(409);
    expect(created.body).toMatchObject({ error: 'domain_taken', message: expect.stringContaining(`"${API_HOST}" is a host this Folio server answers its API on`) });
    const patched = await api('PATCH', `/v1/projects/${project.id}`, { body: { custom_domain: 'folio.operator.test' } });
    expect(patched.status).toBe(409);
    expect((await api('GET', `/v1/projects/${project.id}`)).body).not.toHaveProperty('custom_domain');
    const onApiHost = await getWithHost(server.url, '/v1/projects?limit=1', API_HOST, { authorization: `Bearer ${server.defaultKey}` });
    expect(onApiHost.status).toBe(200);
    // Hosts under the service domain stay refused as before.
    expect((await api('PATCH', `/v1/projects/${project.id}`, { body: { custom_domain: 'x.localhost' } })).status).toBe(400);
  });
});

describe('GET /internal/tls-allowed', () => {
  it('answers 200 for project hosts, verified domains and API hosts, 404 for anything else, 400 for a bad domain', async () => {
    for (const domain of [`${project.slug}.localhost`, `${project.slug.toUpperCase()}.localhost.`, 'localhost', 'api.localhost', API_HOST, 'folio.operator.test']) {
      expect((await tlsAllowed(domain)).status, domain).toBe(200);
    }
    for (const domain of ['nobody.localhost', 'a.b.localhost', 'example.com', 'docs.unknown.example']) {
      const res = await tlsAllowed(domain);
      expect(res.status, domain).toBe(404);
      expect(JSON.parse(res.text).error).toBe('not_found');
    }
    for (const domain of [undefined, '', 'http://docs.example.com', 'docs.example.com:443', 'a b.example.com', '-x.example.com']) {
      const res = await tlsAllowed(domain);
      expect(res.status, String(domain)).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('domain') });
    }
  });

  it('is answered only on API hosts, without a key; other methods are 405', async () => {
    const onSite = await getWithHost(server.url, `/internal/tls-allowed?domain=localhost`, `${project.slug}.localhost`, {}, SITE_HOST);
    expect(onSite.status).toBe(404);
    expect(onSite.headers['content-type']).toContain('text/html');
    const post = await client(server.url)('POST', '/internal/tls-allowed?domain=localhost');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(post.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('across restarts and with the periodic check', () => {
  it('keeps each status across a restart; the periodic check verifies and fails domains on its own', async () => {
    const series = await serverSeries();
    try {
      const env = { FOLIO_DNS_SERVERS: dns.address, FOLIO_DOMAIN_CHECK_S: '1' };
      let running = await series.start(env);
      const key = running.defaultKey; // printed on the first start only
      let own = client(running.url, key);
      const p = await deployedProject(own, 'Restarted home page.');
      const domain = `${uniqueSlug('restart')}.verify.example`;
      const set = (await own('PATCH', `/v1/projects/${p.id}`, { body: { custom_domain: domain } })).body;
      publish(set.custom_domain_verification);
      expect(await statusOnceSettled(own, p.id, 'verified')).toBe('verified');
      await running.stop();

      // With no check until FOLIO_DOMAIN_CHECK_S has passed, the served domain is the stored status.
      running = await series.start({ FOLIO_DNS_SERVERS: dns.address });
      own = client(running.url, key);
      const after = (await own('GET', `/v1/projects/${p.id}`)).body;
      expect(after).toMatchObject({ custom_domain_status: 'verified', custom_domain_verification: set.custom_domain_verification });
      expect(articleOf((await site(domain, running.url)).text)).toContain('Restarted home page.');
      await running.stop();

      running = await series.start(env);
      own = client(running.url, key);
      dns.txt.delete(set.custom_domain_verification.name);
      expect(await statusOnceSettled(own, p.id, 'failed')).toBe('failed');
      expect((await site(domain, running.url)).text).not.toContain('Restarted home page.');
      await running.stop();

      running = await series.start({ FOLIO_DNS_SERVERS: dns.address });
      expect((await client(running.url, key)('GET', `/v1/projects/${p.id}`)).body.custom_domain_status).toBe('failed');
      expect((await tlsAllowed(domain, running.url)).status).toBe(404);
    } finally {
      await series.close();
    }
  });
});

/** Polls a project until its domain has `wanted` status (30 s at most); returns the last status seen. */
async function statusOnceSettled(as: Api, projectId: string, wanted: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = (await as('GET', `/v1/projects/${projectId}`)).body.custom_domain_status;
    if (status === wanted || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

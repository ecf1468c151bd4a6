// The web console's security at the HTTP level (docs/decisions.md#console): cookie flags, a new
// session id at sign-in, cross-site and token-less requests refused, sign-in throttled per IP and
// per account with one answer for unknown emails and wrong passwords, members kept out of keys
// and members, other organizations' projects 404, tenant text escaped, strict headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { admin, client, orgWithKey, pinnedClock, startServer, removeDir, type TestServer } from '../helpers/server.ts';
import { consoleOrigin, consoleRequest, csrfOf, invite, PASSWORD, sessionCookie, signIn, userWithSession } from '../helpers/console.ts';

let deploying: DeployingServer;
let server: TestServer;
let owner: { session: string; csrf: string };
let other: { key: string; orgId: string };
let otherProjectId: string;

beforeAll(async () => {
  // The limiter's clock stands still: each burst of sign-ins falls in one window.
  deploying = await startDeployingServer(pinnedClock());
  server = deploying.server;
  owner = await userWithSession(server, 'default', 'owner@example.com', 'owner');
  other = await orgWithKey(server.dataDir, 'other-org');
  const created = await client(server.url, other.key)('POST', '/v1/projects', { body: { name: 'Theirs', slug: 'theirs-sec' } });
  expect(created.status).toBe(201);
  otherProjectId = created.body.id;
});

afterAll(async () => {
  await deploying?.close();
});

const projectsOf = async (key: string | undefined) => (await client(server.url, key)('GET', '/v1/projects?limit=100')).body.data as { id: string; name: string }[];

describe('console security', () => {
  it('prints a one-time invite link on the console host, valid once, and refuses short passwords', async () => {
    const link = await invite(server.dataDir, 'default', 'newcomer@example.com');
    expect(link).toMatch(new RegExp(`^http://console\\.localhost:${server.port}/invite/[A-Za-z0-9_-]{43}$`));
    const path = new URL(link).pathname;
    const short = await consoleRequest(server, 'POST', path, { form: { password: 'too short', confirm: 'too short' } });
    expect(short.status).toBe(400);
    expect(short.text).toContain('password must be at least 12 characters');
    expect((await consoleRequest(server, 'POST', path, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
    // Used up: the link no longer sets a password.
    const again = await consoleRequest(server, 'POST', path, { form: { password: 'another long password', confirm: 'another long password' } });
    expect(again.status).toBe(404);
    await signIn(server, 'newcomer@example.com');
    const list = await admin(server.dataDir, 'user', 'list', '--org', 'default', '--json');
    expect(JSON.parse(list.stdout).users.map((u: { email: string }) => u.email)).toContain('newcomer@example.com');
    expect(list.stdout).not.toMatch(/scrypt|password_hash|invite/);
  });

  it('sets a host-only, HttpOnly, SameSite=Lax session cookie on http, and sends strict headers', async () => {
    const res = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'owner@example.com', password: PASSWORD } });
    expect(res.status).toBe(303);
    const cookie = sessionCookie(res)!;
    expect(cookie.line).toMatch(/^folio_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie.line).toContain('HttpOnly');
    expect(cookie.line).toContain('SameSite=Lax');
    expect(cookie.line).toContain('Path=/');
    expect(cookie.line).not.toMatch(/Domain=/i); // host-only: never sent to {slug}.localhost
    const page = await consoleRequest(server, 'GET', '/projects', { session: cookie.value });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'/);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script anywhere
    // The session's secret is stored only hashed.
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(`${server.dataDir}/folio.json`, 'utf8')).not.toContain(cookie.value);
  });

  it('gives a new session id at every sign-in and ends the old one (no fixation)', async () => {
    const before = await signIn(server, 'owner@example.com');
    const res = await consoleRequest(server, 'POST', '/sign-in', { session: before.session, form: { email: 'owner@example.com', password: PASSWORD, csrf: before.csrf } });
    expect(res.status).toBe(303);
    const after = sessionCookie(res)!.value;
    expect(after).not.toBe(before.session);
    expect((await consoleRequest(server, 'GET', '/projects', { session: before.session })).status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/projects', { session: after })).status).toBe(200);
    // Signing out ends the session.
    const out = await consoleRequest(server, 'POST', '/sign-out', { session: after, form: { csrf: csrfOf((await consoleRequest(server, 'GET', '/projects', { session: after })).text) } });
    expect(out.status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/projects', { session: after })).status).toBe(303);
  });

  it('keeps the sessions of concurrent requests apart', async () => {
    const second = await userWithSession(server, 'default', 'parallel@example.com');
    const users = [['owner@example.com', owner.session], ['parallel@example.com', second.session]] as const;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => users[i % 2]).map(async ([email, session]) => ({ email, res: await consoleRequest(server, 'GET', '/account', { session }) })),
    );
    for (const { email, res } of answers) {
      expect(res.status).toBe(200);
      expect(/Signed in as <strong>([^<]+)<\/strong>/.exec(res.text)?.[1]).toBe(email);
    }
  });

  it('refuses state-changing requests from another origin, a tenant site or without the session token', async () => {
    const form = { csrf: owner.csrf, name: 'Cross site', slug: 'cross-site' };
    for (const origin of ['http://evil.example', `http://theirs-sec.localhost:${server.port}`, null]) {
      const res = await consoleRequest(server, 'POST', '/projects', { session: owner.session, form, origin });
      expect(res.status, String(origin)).toBe(403);
    }
    const noToken = await consoleRequest(server, 'POST', '/projects', { session: owner.session, form: { name: 'Cross site', slug: 'cross-site' } });
    expect(noToken.status).toBe(403);
    const wrongToken = await consoleRequest(server, 'POST', '/projects', { session: owner.session, form: { ...form, csrf: 'x'.repeat(43) } });
    expect(wrongToken.status).toBe(403);
    expect((await projectsOf(server.defaultKey)).map((p) => p.name)).not.toContain('Cross site');
    // The same form from the console itself works.
    const ok = await consoleRequest(server, 'POST', '/projects', { session: owner.session, form });
    expect(ok.status).toBe(303);
    expect((await projectsOf(server.defaultKey)).map((p) => p.name)).toContain('Cross site');
  });

  it('shows another organization\'s project, deployments and status as 404, and changes nothing of it', async () => {
    for (const path of [`/projects/${otherProjectId}`, `/projects/${otherProjectId}/deployments`, `/projects/${otherProjectId}/pages`]) {
      const res = await consoleRequest(server, 'GET', path, { session: owner.session });
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('Theirs');
    }
    const del = await consoleRequest(server, 'POST', `/projects/${otherProjectId}`, { session: owner.session, form: { csrf: owner.csrf, intent: 'delete', confirm_slug: 'theirs-sec' } });
    expect(del.status).toBe(404);
    const trigger = await consoleRequest(server, 'POST', `/projects/${otherProjectId}/deployments`, { session: owner.session, form: { csrf: owner.csrf } });
    expect(trigger.status).toBe(404);
    expect((await projectsOf(other.key)).map((p) => p.id)).toEqual([otherProjectId]);
    // Their API key cannot be revoked from here either.
    const theirKeyId = JSON.parse((await admin(server.dataDir, 'key', 'list', '--org', 'other-org', '--json')).stdout).keys[0].id;
    const revoke = await consoleRequest(server, 'POST', '/settings/api-keys', { session: owner.session, form: { csrf: owner.csrf, intent: 'revoke', key_id: theirKeyId } });
    expect(revoke.status).toBe(404);
    expect((await client(server.url, other.key)('GET', '/v1/projects')).status).toBe(200);
    const deployments = await client(server.url, other.key)('GET', `/v1/projects/${otherProjectId}/deployments`);
    expect(deployments.body.data).toEqual([]);
    // Console pages exist only on the console host: the API host answers as for any unknown path.
    const onApi = await consoleRequest(server, 'GET', '/projects', { host: `localhost:${server.port}`, session: owner.session });
    expect(onApi.status).toBe(404);
    expect(JSON.parse(onApi.text).error).toBe('not_found');
  });

  it('keeps members out of API keys and member management', async () => {
    const member = await userWithSession(server, 'default', 'member@example.com', 'member');
    const keys = await consoleRequest(server, 'GET', '/settings/api-keys', { session: member.session });
    expect(keys.status).toBe(403);
    const keysBefore = (await admin(server.dataDir, 'key', 'list', '--json')).stdout;
    const create = await consoleRequest(server, 'POST', '/settings/api-keys', { session: member.session, form: { csrf: member.csrf, intent: 'create', name: 'sneaky', scopes: ['projects:read'] } });
    expect(create.status).toBe(403);
    expect((await admin(server.dataDir, 'key', 'list', '--json')).stdout).toBe(keysBefore);
    const inviteRes = await consoleRequest(server, 'POST', '/settings/members', { session: member.session, form: { csrf: member.csrf, intent: 'invite', email: 'friend@example.com', role: 'owner' } });
    expect(inviteRes.status).toBe(403);
    const remove = await consoleRequest(server, 'POST', '/settings/members', { session: member.session, form: { csrf: member.csrf, intent: 'remove', email: 'owner@example.com' } });
    expect(remove.status).toBe(403);
    const users = JSON.parse((await admin(server.dataDir, 'user', 'list', '--org', 'default', '--json')).stdout).users.map((u: { email: string }) => u.email);
    expect(users).toContain('owner@example.com');
    expect(users).not.toContain('friend@example.com');
    // The navigation does not offer what a member cannot open.
    const page = await consoleRequest(server, 'GET', '/projects', { session: member.session });
    expect(page.text).not.toContain('href="/settings/api-keys"');
  });

  it('renders a tenant\'s markup in project names and deployment logs as text', async () => {
    const repo = deploying.host.repo('acme', 'markup-docs');
    repo.commit({ 'docs.json': JSON.stringify({ name: 'Markup' }), 'content/index.mdx': '# Hello\n\n<script>alert(1)</script>\n' });
    const created = await consoleRequest(server, 'POST', '/projects', {
      session: owner.session,
      form: { csrf: owner.csrf, name: '<img src=x onerror=alert(1)>', slug: 'markup-sec', source_repo: repo.slug },
    });
    expect(created.status).toBe(303);
    const projectId = new URL(created.headers.location!, 'http://console.localhost').pathname.split('/').at(-1)!;
    const list = await consoleRequest(server, 'GET', '/projects', { session: owner.session });
    expect(list.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(list.text).not.toContain('<img src=x');
    const api = client(server.url, server.defaultKey);
    const first = (await api('GET', `/v1/projects/${projectId}/deployments`)).body.data[0];
    const done = await waitForDeployment(api, projectId, first.id);
    expect(done.status).toBe('failed');
    const page = await consoleRequest(server, 'GET', `/projects/${projectId}/deployments/${first.id}`, { session: owner.session });
    expect(page.status).toBe(200);
    expect(page.text).toContain('&lt;script&gt;');
    expect(page.text).not.toContain('<script>alert');
    const status = await consoleRequest(server, 'GET', `/projects/${projectId}/deployments/${first.id}/status.json`, { session: owner.session });
    expect(JSON.parse(status.text)).toMatchObject({ status: 'failed' });
    expect(status.headers['content-type']).toMatch(/^application\/json/);
  });

  it('shows how many warnings a deployment\'s build had, in the list and on its page', async () => {
    const repo = deploying.host.repo('acme', 'warned-docs');
    repo.commit({ 'docs.json': JSON.stringify({ name: 'Warned' }), 'content/index.mdx': '# Hello\n\n<Mystery>kept</Mystery>\n' });
    const created = await consoleRequest(server, 'POST', '/projects', { session: owner.session, form: { csrf: owner.csrf, name: 'Warned', slug: 'warned-docs', source_repo: repo.slug } });
    const projectId = new URL(created.headers.location!, 'http://console.localhost').pathname.split('/').at(-1)!;
    const api = client(server.url, server.defaultKey);
    const first = (await api('GET', `/v1/projects/${projectId}/deployments`)).body.data[0];
    expect(await waitForDeployment(api, projectId, first.id)).toMatchObject({ status: 'succeeded', warnings: 1 });
    const list = await consoleRequest(server, 'GET', `/projects/${projectId}/deployments`, { session: owner.session });
    expect(list.text).toMatch(/<td data-label="Warnings"><a href="\/projects\/[^"]+\/deployments\/[^"]+"[^>]*>1<\/a><\/td>/);
    const page = await consoleRequest(server, 'GET', `/projects/${projectId}/deployments/${first.id}`, { session: owner.session });
    expect(page.text).toMatch(/<dt>Warnings<\/dt><dd id="deployment-warnings">1<span class="muted"> \(each is a line of the log below/);
    expect(page.text).toContain('warning: content/index.mdx:3:1: unknown component &lt;Mystery&gt;');
  });

  it('answers a wrong email like a wrong password, and 429 after 10 failures a minute per IP and per account', async () => {
    const target = new URL(await invite(server.dataDir, 'default', 'target@example.com')).pathname;
    await consoleRequest(server, 'POST', target, { form: { password: PASSWORD, confirm: PASSWORD } });
    const unknown = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'nobody@example.com', password: 'wrong password!' }, localAddress: '127.0.0.2' });
    const wrong = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'owner@example.com', password: 'wrong password!' }, localAddress: '127.0.0.2' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const alert = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(alert(unknown.text)).toBe('The email or the password is not right.');
    expect(alert(wrong.text)).toBe(alert(unknown.text));

    // Per IP: 10 failures from 127.0.0.3 (each for another email), then even a right password is 429.
    // Both runs of failures fall in one fixed window.
    for (let i = 0; i < 10; i++) {
      const res = await consoleRequest(server, 'POST', '/sign-in', { form: { email: `guess${i}@example.com`, password: 'wrong password!' }, localAddress: '127.0.0.3' });
      expect(res.status).toBe(401);
    }
    const blockedIp = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'owner@example.com', password: PASSWORD }, localAddress: '127.0.0.3' });
    expect(blockedIp.status).toBe(429);
    expect(Number(blockedIp.headers['retry-after'])).toBeGreaterThan(0);
    expect(sessionCookie(blockedIp)).toBeUndefined();

    // Per account: 10 failures for one email from 10 addresses, then that account is 429 from anywhere.
    for (let i = 0; i < 10; i++) {
      const res = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'target@example.com', password: 'wrong password!' }, localAddress: `127.0.1.${i + 1}` });
      expect(res.status).toBe(401);
    }
    const blockedAccount = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'target@example.com', password: PASSWORD }, localAddress: '127.0.2.1' });
    expect(blockedAccount.status).toBe(429);
    // Other accounts from other addresses are not affected.
    expect((await signIn(server, 'owner@example.com', PASSWORD, '127.0.2.2')).session).toBeTruthy();
  });
});

describe('console members and organizations', () => {
  it('lets an owner invite and remove members, and a user in two orgs switch between them', async () => {
    const res = await consoleRequest(server, 'POST', '/settings/members', { session: owner.session, form: { csrf: owner.csrf, intent: 'invite', email: 'Two.Orgs@Example.com', role: 'member' } });
    expect(res.status).toBe(200);
    const link = /id="invite-url">([^<]+)</.exec(res.text)?.[1];
    expect(link).toMatch(new RegExp(`^http://console\\.localhost:${server.port}/invite/`));
    expect((await consoleRequest(server, 'POST', new URL(link!).pathname, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
    // The same person in a second organization (through the CLI): a new link adds it.
    const added = await invite(server.dataDir, 'other-org', 'two.orgs@example.com');
    expect((await consoleRequest(server, 'POST', new URL(added).pathname, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
    const user = await signIn(server, 'two.orgs@example.com');
    const before = await consoleRequest(server, 'GET', '/projects', { session: user.session });
    expect(before.text).toContain('id="org-switch"');
    expect(before.text).not.toContain('Theirs');
    const otherOrgId = new RegExp(`<option value="([^"]+)"[^>]*>other-org</option>`).exec(before.text)?.[1];
    const switched = await consoleRequest(server, 'POST', '/switch-org', { session: user.session, form: { csrf: user.csrf, org_id: otherOrgId! } });
    expect(switched.status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/projects', { session: user.session })).text).toContain('Theirs');
    expect((await consoleRequest(server, 'GET', `/projects/${otherProjectId}`, { session: user.session })).status).toBe(200);
    // An org the user is not in cannot be switched to.
    expect((await consoleRequest(server, 'POST', '/switch-org', { session: user.session, form: { csrf: user.csrf, org_id: crypto.randomUUID() } })).status).toBe(404);

    // Removed from other-org by the CLI: the session ends, the user stays in default.
    expect((await admin(server.dataDir, 'user', 'remove', '--org', 'other-org', '--email', 'two.orgs@example.com')).code).toBe(0);
    expect((await consoleRequest(server, 'GET', '/projects', { session: user.session })).status).toBe(303);
    // Removed from default by an owner in the console: with no org left, the user is gone.
    const again = await signIn(server, 'two.orgs@example.com');
    const removed = await consoleRequest(server, 'POST', '/settings/members', { session: owner.session, form: { csrf: owner.csrf, intent: 'remove', email: 'two.orgs@example.com' } });
    expect(removed.status).toBe(200);
    expect((await consoleRequest(server, 'GET', '/projects', { session: again.session })).status).toBe(303);
    const list = JSON.parse((await admin(server.dataDir, 'user', 'list', '--json')).stdout).users.map((u: { email: string }) => u.email);
    expect(list).not.toContain('two.orgs@example.com');
  });

  it('never hands an account an owner created for someone else\'s address to the org the operator later adds it to', async () => {
    const victimOrg = await orgWithKey(server.dataDir, 'victim-org');
    const victimProject = await client(server.url, victimOrg.key)('POST', '/v1/projects', { body: { name: 'Victim Secrets', slug: 'victim-secrets' } });
    expect(victimProject.status).toBe(201);
    expect((await admin(server.dataDir, 'org', 'create', 'mallory-org')).code).toBe(0);
    const mallory = await userWithSession(server, 'mallory-org', 'mallory@example.com', 'owner');

    // The attacker, owner of mallory-org, invites the victim's address and chooses its password.
    const res = await consoleRequest(server, 'POST', '/settings/members', { session: mallory.session, form: { csrf: mallory.csrf, intent: 'invite', email: 'victim@example.com', role: 'member' } });
    const attackerLink = new URL(/id="invite-url">([^<]+)</.exec(res.text)![1]);
    const attackerPassword = 'chosen by the attacker';
    expect((await consoleRequest(server, 'POST', attackerLink.pathname, { form: { password: attackerPassword, confirm: attackerPassword } })).status).toBe(303);
    const hijacked = await signIn(server, 'victim@example.com', attackerPassword);

    // The operator adds that address to the victim's org: a link for the person, no membership yet.
    const added = await admin(server.dataDir, 'user', 'create', '--org', 'victim-org', '--email', 'victim@example.com', '--role', 'owner');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('They join the organization (owner) only when they use this link');
    const victimLink = new URL(added.stdout.trim().split('\n').at(-1)!);
    expect(victimLink.pathname).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    for (const session of [hijacked, await signIn(server, 'victim@example.com', attackerPassword)]) {
      const page = await consoleRequest(server, 'GET', '/projects', { session: session.session });
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('victim-org');
      expect(page.text).not.toContain('Victim Secrets');
      expect((await consoleRequest(server, 'POST', '/switch-org', { session: session.session, form: { csrf: session.csrf, org_id: victimOrg.orgId } })).status).toBe(404);
      expect((await consoleRequest(server, 'GET', `/projects/${victimProject.body.id}`, { session: session.session })).status).toBe(404);
    }
    // Used links stay used; the owner can neither re-invite the address nor see the new link.
    expect((await consoleRequest(server, 'GET', attackerLink.pathname)).status).toBe(404);
    const again = await consoleRequest(server, 'POST', '/settings/members', { session: mallory.session, form: { csrf: mallory.csrf, intent: 'invite', email: 'victim@example.com', role: 'member' } });
    expect(again.status).toBe(400);
    expect(again.text).not.toContain(victimLink.pathname);

    // The person at the address uses the link: it says what it does, and takes the account back.
    const page = await consoleRequest(server, 'GET', victimLink.pathname);
    expect(page.text).toContain('Saving it adds you to victim-org. It replaces the account');
    const mine = 'only the victim knows this';
    expect((await consoleRequest(server, 'POST', victimLink.pathname, { form: { password: mine, confirm: mine } })).status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/projects', { session: hijacked.session })).status).toBe(303);
    const stale = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'victim@example.com', password: attackerPassword }, localAddress: '127.0.4.1' });
    expect(stale.status).toBe(401);
    const victim = await signIn(server, 'victim@example.com', mine);
    expect((await consoleRequest(server, 'POST', '/switch-org', { session: victim.session, form: { csrf: victim.csrf, org_id: victimOrg.orgId } })).status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/projects', { session: victim.session })).text).toContain('Victim Secrets');
  });

  it('makes an organization\'s first user its owner when user create names no role, later ones members', async () => {
    expect((await admin(server.dataDir, 'org', 'create', 'new-team')).code).toBe(0);
    const first = await admin(server.dataDir, 'user', 'create', '--org', 'new-team', '--email', 'founder@example.com');
    expect(first.stdout).toContain('founder@example.com is a member (owner) of the organization.');
    const second = await admin(server.dataDir, 'user', 'create', '--org', 'new-team', '--email', 'joiner@example.com');
    expect(second.stdout).toContain('joiner@example.com is a member (member) of the organization.');
    const founderLink = new URL(first.stdout.trim().split('\n').at(-1)!);
    expect((await consoleRequest(server, 'POST', founderLink.pathname, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
    const founder = await signIn(server, 'founder@example.com');
    expect((await consoleRequest(server, 'GET', '/settings/api-keys', { session: founder.session })).status).toBe(200);
  });

  it('resets a password from the CLI: the old one stops working, a new one-time link is printed', async () => {
    const user = await userWithSession(server, 'default', 'forgetful@example.com');
    const reset = await admin(server.dataDir, 'user', 'reset-password', 'forgetful@example.com');
    expect(reset.code).toBe(0);
    const link = reset.stdout.trim().split('\n').at(-1)!;
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    expect((await consoleRequest(server, 'GET', '/projects', { session: user.session })).status).toBe(303);
    const old = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'forgetful@example.com', password: PASSWORD }, localAddress: '127.0.3.1' });
    expect(old.status).toBe(401);
    const chosen = 'a brand new passphrase';
    expect((await consoleRequest(server, 'POST', new URL(link).pathname, { form: { password: chosen, confirm: chosen } })).status).toBe(303);
    expect((await signIn(server, 'forgetful@example.com', chosen)).session).toBeTruthy();
    const bad = await admin(server.dataDir, 'user', 'create', '--org', 'default', '--email', 'not-an-email');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('email must be an address such as ada@example.com');
  });
});

describe('console confirmations and passwords', () => {
  it('deletes a project only when its slug is typed', async () => {
    const created = await consoleRequest(server, 'POST', '/projects', { session: owner.session, form: { csrf: owner.csrf, name: 'Short lived', slug: 'short-lived' } });
    const path = created.headers.location!;
    const wrong = await consoleRequest(server, 'POST', path, { session: owner.session, form: { csrf: owner.csrf, intent: 'delete', confirm_slug: 'short' } });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('type the slug &quot;short-lived&quot; to confirm');
    expect((await projectsOf(server.defaultKey)).map((p) => p.name)).toContain('Short lived');
    const right = await consoleRequest(server, 'POST', path, { session: owner.session, form: { csrf: owner.csrf, intent: 'delete', confirm_slug: 'short-lived' } });
    expect(right.status).toBe(303);
    expect((await consoleRequest(server, 'GET', right.headers.location!, { session: owner.session })).text).toContain('Project deleted, with its pages, deployments and site.');
    expect((await projectsOf(server.defaultKey)).map((p) => p.name)).not.toContain('Short lived');
    expect((await consoleRequest(server, 'GET', path, { session: owner.session })).status).toBe(404);
  });

  it('changes a password only with the current one, and ends the other sessions', async () => {
    const here = await userWithSession(server, 'default', 'changer@example.com');
    const elsewhere = await signIn(server, 'changer@example.com');
    const form = { csrf: here.csrf, current_password: 'not my password', new_password: 'a different passphrase', confirm: 'a different passphrase' };
    const refused = await consoleRequest(server, 'POST', '/account', { session: here.session, form });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('the current password is not right');
    const short = await consoleRequest(server, 'POST', '/account', { session: here.session, form: { ...form, current_password: PASSWORD, new_password: 'short', confirm: 'short' } });
    expect(short.text).toContain('new password must be at least 12 characters');
    const changed = await consoleRequest(server, 'POST', '/account', { session: here.session, form: { ...form, current_password: PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await consoleRequest(server, 'GET', '/projects', { session: here.session })).status).toBe(200);
    expect((await consoleRequest(server, 'GET', '/projects', { session: elsewhere.session })).status).toBe(303);
    expect((await signIn(server, 'changer@example.com', 'a different passphrase')).session).toBeTruthy();
  });
});

describe('console organization page', () => {
  it('shows the plan, the rate limit and the requests used in the current minute', async () => {
    const api = client(server.url, server.defaultKey);
    const read = async () => {
      const page = await consoleRequest(server, 'GET', '/settings/organization', { session: owner.session });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<dd>business</dd>');
      expect(page.text).toContain('1000000 API requests per minute');
      return Number(/<dd>(\d+) used, /.exec(page.text)?.[1]);
    }; // the count is per fixed minute
    const before = await read();
    for (let i = 0; i < 3; i++) expect((await api('GET', '/v1/projects')).status).toBe(200);
    expect(await read()).toBe(before + 3); // reading the page counts nothing
  });
});

describe('console over https', () => {
  let secure: TestServer;
  afterAll(async () => {
    await secure?.stop();
    if (secure) await removeDir(secure.dataDir);
  });

  it('names the cookie __Host-folio_session with Secure, and checks the https origin', async () => {
    secure = await startServer({ env: { FOLIO_PUBLIC_SCHEME: 'https', FOLIO_PUBLIC_PORT: '443' } });
    const link = await invite(secure.dataDir, 'default', 'tls@example.com', 'owner');
    expect(link).toMatch(/^https:\/\/console\.localhost\/invite\//);
    const origin = 'https://console.localhost';
    expect((await consoleRequest(secure, 'POST', new URL(link).pathname, { form: { password: PASSWORD, confirm: PASSWORD }, origin })).status).toBe(303);
    expect((await consoleRequest(secure, 'POST', '/sign-in', { form: { email: 'tls@example.com', password: PASSWORD }, origin: consoleOrigin(secure) })).status).toBe(403);
    const res = await consoleRequest(secure, 'POST', '/sign-in', { form: { email: 'tls@example.com', password: PASSWORD }, origin });
    expect(res.status).toBe(303);
    const line = (res.headers['set-cookie'] ?? []).join('\n');
    expect(line).toMatch(/^__Host-folio_session=[A-Za-z0-9_-]{43}; /);
    expect(line).toContain('Secure');
    expect(line).toContain('Path=/');
    expect(line).not.toMatch(/Domain=/i);
  });
});

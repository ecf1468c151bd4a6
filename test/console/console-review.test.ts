// Attacks on the web console found in its security review (docs/decisions.md#console): an owner
// of one org reaching another org's accounts through Members → Invite, and parallel sign-in
// guesses slipping past the limit of 10 failures a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, orgWithKey, removeDir, startServer, type TestServer } from '../helpers/server.ts';
import { consoleRequest, invite, PASSWORD, signIn, userWithSession } from '../helpers/console.ts';

let server: TestServer;
let owner: { session: string; csrf: string };

beforeAll(async () => {
  server = await startServer();
  owner = await userWithSession(server, 'default', 'boss@example.com', 'owner');
  await orgWithKey(server.dataDir, 'rival');
});

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir);
});

const membersOf = async (org: string) =>
  JSON.parse((await admin(server.dataDir, 'user', 'list', '--org', org, '--json')).stdout).users.map((u: { email: string }) => u.email) as string[];

describe('console invites by an owner', () => {
  it('gives no link for an account another org invited: that org\'s link stays the only way in', async () => {
    const theirLink = new URL(await invite(server.dataDir, 'rival', 'pending@example.com'));
    const res = await consoleRequest(server, 'POST', '/settings/members', { session: owner.session, form: { csrf: owner.csrf, intent: 'invite', email: 'pending@example.com', role: 'member' } });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('/invite/');
    expect(res.text).toContain('pending@example.com already has a Folio account');
    expect(await membersOf('default')).not.toContain('pending@example.com');
    // The invite the other org sent still works (it was not replaced by a new one).
    expect((await consoleRequest(server, 'POST', theirLink.pathname, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(200);
  });

  it('does not add an existing account to the owner\'s org, so whoever made it first gets no way in', async () => {
    await userWithSession(server, 'rival', 'someone@example.com');
    const res = await consoleRequest(server, 'POST', '/settings/members', { session: owner.session, form: { csrf: owner.csrf, intent: 'invite', email: 'someone@example.com', role: 'owner' } });
    expect(res.status).toBe(400);
    expect(res.text).toContain('npm run admin -- user create --org default --email someone@example.com');
    expect(await membersOf('default')).not.toContain('someone@example.com');
    // The operator can, with the CLI.
    expect((await admin(server.dataDir, 'user', 'create', '--org', 'default', '--email', 'someone@example.com')).code).toBe(0);
    expect(await membersOf('default')).toContain('someone@example.com');
  });
});

describe('console sign-in throttling', () => {
  it('stops a burst of parallel wrong passwords after 10, like the same guesses one by one', async () => {
    // The burst falls in one fixed window of the rate limiter.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 50));
    const burst = await Promise.all(
      Array.from({ length: 24 }, () => consoleRequest(server, 'POST', '/sign-in', { form: { email: 'boss@example.com', password: 'a wrong guess!' }, localAddress: '127.0.4.1' })),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(14);
    // The right password from elsewhere is refused too this minute: the account is throttled.
    const right = await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'boss@example.com', password: PASSWORD }, localAddress: '127.0.4.2' });
    expect(right.status).toBe(429);
    // Another account from another address is unaffected.
    expect((await signIn(server, 'someone@example.com', PASSWORD, '127.0.4.3')).session).toBeTruthy();
  });
});

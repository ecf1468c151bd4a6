// Attacks on the web console found in its security review (docs/decisions.md#console): an owner
// of one org reaching another org's accounts through Members → Invite, parallel sign-in guesses
// slipping past the limit of 10 failures a minute, unthrottled guesses of the current password
// on the Account page, a chunked form body sidestepping the size check, and console-host answers
// outside the pages sent without the console's headers.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, orgWithKey, pinnedClock, removeDir, startServer, type TestServer } from '../helpers/server.ts';
import { consoleRequest, invite, PASSWORD, signIn, userWithSession } from '../helpers/console.ts';

let server: TestServer;
let owner: { session: string; csrf: string };

beforeAll(async () => {
  // The limiter's clock stands still: a burst of sign-ins falls in one window.
  server = await startServer({ env: pinnedClock() });
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
    expect((await consoleRequest(server, 'POST', theirLink.pathname, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
  });

  it('does not add an existing account to the owner\'s org, so whoever made it first gets no way in', async () => {
    await userWithSession(server, 'rival', 'someone@example.com');
    const res = await consoleRequest(server, 'POST', '/settings/members', { session: owner.session, form: { csrf: owner.csrf, intent: 'invite', email: 'someone@example.com', role: 'owner' } });
    expect(res.status).toBe(400);
    expect(res.text).toContain('npm run admin -- user create --org default --email someone@example.com');
    expect(await membersOf('default')).not.toContain('someone@example.com');
    // The operator can, with the CLI: through a link for the person, used with their password.
    const link = new URL(await invite(server.dataDir, 'default', 'someone@example.com'));
    expect(await membersOf('default')).not.toContain('someone@example.com');
    expect((await consoleRequest(server, 'POST', link.pathname, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
    expect(await membersOf('default')).toContain('someone@example.com');
  });
});

describe('console sign-in throttling', () => {
  it('stops a burst of parallel wrong passwords after 10, like the same guesses one by one', async () => {
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

describe('console answers outside its pages', () => {
  it('answers a path no route matches with the console\'s 404 page and its headers, not the API\'s JSON', async () => {
    for (const path of ['/a/b/c', '/Sign-In', '/_astro/../package.json']) {
      const res = await consoleRequest(server, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('There is no console page at this address.');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('console assets', () => {
  it('sends the console\'s styles and scripts brotli- or gzip-compressed to a browser that takes it, the same bytes once decoded', async () => {
    const page = await consoleRequest(server, 'GET', '/sign-in');
    const asset = /\/_astro\/[^"']+\.css/.exec(page.text)?.[0];
    expect(asset).toBeDefined();
    const get = (encoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = { host: `console.localhost:${server.port}` };
        if (encoding) headers['accept-encoding'] = encoding;
        http.get(`${server.url}${asset}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const [plain, br, gzip] = [await get(), await get('gzip, deflate, br'), await get('gzip')];
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    expect(zlib.gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
    for (const res of [plain, br, gzip]) {
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('console forms', () => {
  it('counts wrong current passwords on the Account page as failed sign-ins of the account', async () => {
    const user = await userWithSession(server, 'default', 'changer@example.com');
    let last;
    for (let i = 0; i < 11; i++) {
      last = await consoleRequest(server, 'POST', '/account', { session: user.session, form: { csrf: user.csrf, current_password: `guess number ${i}`, new_password: 'a new long password', confirm: 'a new long password' } });
      if (i < 10) expect(last.status).toBe(400);
    }
    expect(last!.status).toBe(429);
    expect(last!.text).toContain('too many wrong passwords');
    // Even the right one now waits, and the password did not change.
    const right = await consoleRequest(server, 'POST', '/account', { session: user.session, form: { csrf: user.csrf, current_password: PASSWORD, new_password: 'a new long password', confirm: 'a new long password' } });
    expect(right.status).toBe(429);
    expect((await consoleRequest(server, 'POST', '/sign-in', { form: { email: 'changer@example.com', password: PASSWORD }, localAddress: '127.0.5.1' })).status).toBe(429);
  });

  it('refuses a form sent without Content-Length (chunked) before reading it', async () => {
    const { session, csrf } = owner;
    const res = await new Promise<{ status: number; text: string; csp?: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/settings/members`, {
        method: 'POST',
        headers: { host: `console.localhost:${server.port}`, origin: `http://console.localhost:${server.port}`, cookie: `folio_session=${session}`, 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
      }, (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, text, csp: r.headers['content-security-policy'] as string | undefined }));
      });
      req.on('error', reject);
      req.write(`csrf=${csrf}&intent=invite`);
      req.end('&email=chunked%40example.com&role=member');
    });
    expect(res.status).toBe(411);
    expect(res.csp).toContain("frame-ancestors 'none'");
    expect(await membersOf('default')).not.toContain('chunked@example.com');
  });
});

// Helpers of the console tests: requests to the console's host (`console.localhost:{port}`) with
// cookies, forms and a chosen Origin or client address, invites through the admin CLI, sign-in.
import http from 'node:http';
import { admin, type TestServer } from './server.ts';

export const PASSWORD = 'correct horse battery staple';

export interface ConsoleResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface ConsoleRequest {
  /** The session cookie's value (`folio_session`). */
  session?: string;
  /** Fields of an urlencoded form (a POST); a list sends the field several times. */
  form?: Record<string, string | string[]>;
  /** The Origin header of a POST; the console's own origin unless given (null: none). */
  origin?: string | null;
  /** The client address to connect from (127.0.0.x), for per-IP limits. */
  localAddress?: string;
  host?: string;
}

export const consoleOrigin = (server: TestServer) => `http://console.localhost:${server.port}`;

export function consoleRequest(server: TestServer, method: string, path: string, options: ConsoleRequest = {}): Promise<ConsoleResponse> {
  const headers: Record<string, string> = { host: options.host ?? `console.localhost:${server.port}` };
  if (options.session) headers.cookie = `folio_session=${options.session}`;
  let body: string | undefined;
  if (options.form) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(options.form)) for (const one of [value].flat()) params.append(name, one);
    body = params.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (method !== 'GET' && options.origin !== null) headers.origin = options.origin ?? consoleOrigin(server);
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, headers, localAddress: options.localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The session cookie set by an answer (its whole Set-Cookie line and value). */
export function sessionCookie(res: ConsoleResponse): { line: string; value: string } | undefined {
  const line = (res.headers['set-cookie'] ?? []).find((c) => /^(__Host-)?folio_session=/.test(c));
  const value = line && /=([^;]*)/.exec(line)?.[1];
  return line && value ? { line, value } : undefined;
}

/** The per-session token in a page's forms. */
export function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no csrf token in the page');
  return token;
}

/** `user create` with the admin CLI; returns the invite link (the last line). */
export async function invite(dataDir: string, org: string, email: string, role = 'member'): Promise<string> {
  const res = await admin(dataDir, 'user', 'create', '--org', org, '--email', email, '--role', role);
  if (res.code !== 0) throw new Error(`user create failed: ${res.stderr}`);
  return res.stdout.trim().split('\n').at(-1)!;
}

/** Invites a user and sets the password through the invite page, which signs in; returns the session. */
export async function userWithSession(server: TestServer, org: string, email: string, role = 'member'): Promise<{ session: string; csrf: string }> {
  const link = new URL(await invite(server.dataDir, org, email, role));
  const set = await consoleRequest(server, 'POST', link.pathname, { form: { password: PASSWORD, confirm: PASSWORD } });
  const cookie = sessionCookie(set);
  if (set.status !== 303 || !cookie) throw new Error(`setting the password answered ${set.status}`);
  return withCsrf(server, cookie.value);
}

/** A session and the token of its forms (read from a page). */
async function withCsrf(server: TestServer, session: string): Promise<{ session: string; csrf: string }> {
  const page = await consoleRequest(server, 'GET', '/projects', { session });
  return { session, csrf: csrfOf(page.text) };
}

export async function signIn(server: TestServer, email: string, password = PASSWORD, localAddress?: string): Promise<{ session: string; csrf: string }> {
  const res = await consoleRequest(server, 'POST', '/sign-in', { form: { email, password }, localAddress });
  const cookie = sessionCookie(res);
  if (res.status !== 303 || !cookie) throw new Error(`sign-in answered ${res.status}`);
  return withCsrf(server, cookie.value);
}

// A site's connect-src (docs/decisions.md#openapi-reference-pages): the hosting adds the origins a
// live build lists in _folio/connect-origins.txt, and only lines that are exact http(s) origins:
// the file is a build's output, so a tenant's to write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveWithFolio } from '../site/helpers.ts';
import { THEME_SCRIPT_HASH } from '../../src/site/theme-script.ts';

const servers: Array<Awaited<ReturnType<typeof serveWithFolio>>> = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function cspOf(files: Record<string, string>): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-csp-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
    fs.writeFileSync(path.join(out, rel), text);
  }
  const server = await serveWithFolio(out);
  servers.push(server);
  const res = await fetch(`${server.url}/`);
  return res.headers.get('content-security-policy') ?? '';
}

const connectSrc = (policy: string) => /(?:^|; )connect-src ([^;]*)/.exec(policy)?.[1];

describe('connect-src of a site with an API playground', () => {
  it('is only the site itself without a list', async () => {
    expect(connectSrc(await cspOf({ 'index.html': '<h1>Hi</h1>' }))).toBe("'self'");
  });

  it('adds exactly the listed origins and drops anything else a build could write there', async () => {
    const policy = await cspOf({
      'index.html': '<h1>Hi</h1>',
      '_folio/connect-origins.txt': [
        'https://api.example.com',
        'http://127.0.0.1:4321',
        '*',
        "'unsafe-inline'",
        'https://api.example.com/v1',
        'https://evil.example.com; script-src *',
        'data:',
        'https://API.example.com',
        'https://api.example.com',
      ].join('\n'),
    });
    expect(connectSrc(policy)).toBe("'self' https://api.example.com http://127.0.0.1:4321");
    expect(policy).toContain(`script-src 'self' 'wasm-unsafe-eval' ${THEME_SCRIPT_HASH};`);
  });

  it('ignores a list that is a link', async () => {
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-csp-target-'));
    fs.writeFileSync(path.join(target, 'origins.txt'), 'https://linked.example.com\n');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-csp-'));
    fs.writeFileSync(path.join(out, 'index.html'), '<h1>Hi</h1>');
    fs.mkdirSync(path.join(out, '_folio'));
    fs.symlinkSync(path.join(target, 'origins.txt'), path.join(out, '_folio/connect-origins.txt'));
    const server = await serveWithFolio(out);
    servers.push(server);
    const res = await fetch(`${server.url}/`);
    expect(connectSrc(res.headers.get('content-security-policy') ?? '')).toBe("'self'");
  });
});

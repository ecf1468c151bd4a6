// Code of a project with code enabled runs at build time, and only inside the build sandbox: a
// component that tries to read the server's environment, its data, /etc/shadow or pid 1's
// environment, or to open a socket to the host, renders what it got, and it got nothing. The
// build itself succeeds and the test process (standing in for the server) is untouched.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSiteResult } from '../../src/builder/build.ts';
import { article, makeContentRoot, text } from './helpers.ts';

const CANARY = `canary-${process.pid}-${Date.now()}`;

/** A component whose module runs probes while the page renders and prints every answer. */
function probeComponent(secretFile: string, port: number): string {
  return `const attempt = (what, run) => {
  try { return what + ': ' + String(run()).slice(0, 200); } catch (e) { return what + ': blocked (' + (e.code || e.name) + ')'; }
};
const fs = process.getBuiltinModule('node:fs');
const cp = process.getBuiltinModule('node:child_process');
const probes = [
  attempt('env', () => JSON.stringify(process.env)),
  attempt('pid1', () => fs.readFileSync('/proc/1/environ', 'utf8')),
  attempt('parent', () => fs.readFileSync('/proc/${process.pid}/environ', 'utf8')),
  attempt('secret', () => fs.readFileSync(${JSON.stringify(secretFile)}, 'utf8')),
  attempt('shadow', () => fs.readFileSync('/etc/shadow', 'utf8')),
  attempt('socket', () => cp.spawnSync(process.execPath, ['-e',
    "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log('refused ' + e.code); process.exit(0); })"],
    { encoding: 'utf8', timeout: 10000 }).stdout),
  // The content the build reads shares its files with the server's snapshot (hard links): never writable.
  attempt('write-content', () => { fs.appendFileSync('/input/site/snippets/probe.jsx', '// TAMPERED'); return 'written'; }),
  attempt('chmod-content', () => { fs.chmodSync('/input/site/snippets/probe.jsx', 0o666); return 'changed'; }),
  attempt('truncate-content', () => { fs.truncateSync('/input/site/snippets/probe.jsx', 0); return 'truncated'; }),
  attempt('utimes-content', () => { fs.utimesSync('/input/site/snippets/probe.jsx', 0, 0); return 'touched'; }),
  // A file of its own renamed over the content, or a link to the content in its writable build root.
  attempt('rename-over-content', () => { fs.writeFileSync('over.jsx', '// TAMPERED'); fs.renameSync('over.jsx', '/input/site/snippets/probe.jsx'); return 'replaced'; }),
  attempt('link-content', () => { fs.linkSync('/input/site/snippets/probe.jsx', 'probe-link.jsx'); fs.appendFileSync('probe-link.jsx', '// TAMPERED'); return 'linked'; }),
  attempt('unlink-content', () => { fs.unlinkSync('/input/site/snippets/probe.jsx'); return 'removed'; }),
];

export default function Probe() {
  return <ul className="probes">{probes.map((p) => <li key={p}>{p}</li>)}</ul>;
}
`;
}

let secretDir: string;
let listener: net.Server;
let connections = 0;
let result: BuildSiteResult;
let html = '';
let root: string;
let probeSource: string;
let probeMtime: number;

beforeAll(async () => {
  process.env.FOLIO_TEST_CANARY = CANARY;
  secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-secret-'));
  const secretFile = path.join(secretDir, 'folio.json');
  fs.writeFileSync(secretFile, `{"secret":"${CANARY}"}`);
  listener = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as net.AddressInfo).port;
  root = makeContentRoot({
    'content/index.mdx': `---\ntitle: Probe\n---\n\nimport Probe from '/snippets/probe.jsx';\n\n<Probe />\n`,
    'snippets/probe.jsx': probeComponent(secretFile, port),
  });
  probeSource = fs.readFileSync(path.join(root, 'snippets/probe.jsx'), 'utf8');
  probeMtime = fs.statSync(path.join(root, 'snippets/probe.jsx')).mtimeMs;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  result = await buildSite({ contentRoot: root, outDir: out, allowCode: true, timeoutMs: 180_000 });
  if (result.ok) html = article(fs.readFileSync(path.join(out, 'index.html'), 'utf8'));
}, 240_000);

afterAll(async () => {
  delete process.env.FOLIO_TEST_CANARY;
  fs.rmSync(secretDir, { recursive: true, force: true });
  await new Promise((resolve) => listener.close(resolve));
});

describe('code of a project with code enabled, at build time', () => {
  it('runs (the build succeeds and renders what the probes got)', () => {
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(text(html)).toContain('env: ');
  });

  it('sees none of the server: no canary anywhere in the page or the log', () => {
    expect(html).not.toContain(CANARY);
    expect(result.log.join('\n')).not.toContain(CANARY);
  });

  it('cannot read pid 1, the parent process, the data dir or /etc/shadow', () => {
    const lines = text(html);
    for (const what of ['pid1', 'parent', 'secret', 'shadow']) expect(lines).toMatch(new RegExp(`${what}: blocked \\((EACCES|ENOENT|EPERM)\\)`));
  });

  it('cannot write into, or change the mode of, the content it reads: the content root stays as it was', () => {
    const lines = text(html);
    expect(lines).toMatch(/write-content: blocked \((EROFS|EACCES|EPERM)\)/);
    expect(lines).toMatch(/chmod-content: blocked \((EROFS|EACCES|EPERM)\)/);
    for (const what of ['truncate', 'utimes', 'rename-over', 'unlink']) expect(lines).toMatch(new RegExp(`${what}-content: blocked \\((EROFS|EACCES|EPERM|EXDEV)\\)`));
    // A hard link needs the same mount: the content's is read-only and apart from the build root.
    expect(lines).toMatch(/link-content: blocked \((EXDEV|EROFS|EPERM)\)/);
    expect(fs.readFileSync(path.join(root, 'snippets/probe.jsx'), 'utf8')).toBe(probeSource);
    expect(fs.statSync(path.join(root, 'snippets/probe.jsx')).mode & 0o777).toBe(0o644);
    expect(fs.statSync(path.join(root, 'snippets/probe.jsx')).mtimeMs).toBe(probeMtime);
  });

  it('cannot open a socket to the host', () => {
    expect(text(html)).not.toContain('CONNECTED');
    expect(connections).toBe(0);
  });
});

describe('code that swaps the build output for a link to the host', () => {
  it('is refused: the server never moves files through the link', async () => {
    // The link names /proc/self/cwd/…: inside the sandbox that is the build root (where the code
    // leaves a small site, so search indexing succeeds); on the host it is the server's directory.
    const victimRel = `.folio-builds/victim-${process.pid}-${Date.now()}`;
    const victim = path.join(process.cwd(), victimRel);
    fs.mkdirSync(victim, { recursive: true });
    fs.writeFileSync(path.join(victim, 'secret.txt'), CANARY);
    const root = makeContentRoot({
      'content/index.mdx': `---\ntitle: Swap\n---\n\nimport Swap from '/snippets/swap.jsx';\n\n<Swap />\n`,
      'snippets/swap.jsx': `const fs = process.getBuiltinModule('node:fs');
process.on('exit', () => {
  const decoy = ${JSON.stringify(victimRel)};
  fs.mkdirSync(decoy, { recursive: true });
  fs.writeFileSync(decoy + '/index.html', '<!doctype html><html><body><p>decoy</p></body></html>');
  fs.rmSync('out', { recursive: true, force: true });
  fs.symlinkSync('/proc/self/cwd/' + decoy, 'out');
});
export default function Swap() { return <p>swapped at exit</p>; }
`,
    });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
    try {
      const swapped = await buildSite({ contentRoot: root, outDir: out, allowCode: true, timeoutMs: 180_000 });
      expect(fs.readFileSync(path.join(victim, 'secret.txt'), 'utf8')).toBe(CANARY);
      expect(fs.readdirSync(out)).not.toContain('secret.txt');
      expect(swapped.ok).toBe(false);
      expect(swapped.error?.message).toContain('replaced its output directory with a link');
    } finally {
      fs.rmSync(victim, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

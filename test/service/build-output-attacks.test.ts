// A project with code (allow_code) is hostile at build time: its code runs in the build sandbox and
// may leave anything in the build's output, at any depth, when Astro exits. Through the real
// server: a link inside a folder of the output must not let the server write on the host (the
// repository's static files are copied in after the build), a FIFO must not block the server's
// file threads (every request to a site reads a small file of its live build), and one huge
// output line must neither stall the server nor fill the deployment's log.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { getWithHost, uniqueSlug, type Json } from '../helpers/server.ts';
import { liveLink } from '../../src/service/project-files.ts';
import { CONNECT_ORIGINS_FILE } from '../../src/site/openapi/origins.ts';
import { MAX_LOG_BYTES, MAX_LOG_LINE } from '../../src/builder/build-log.ts';

let fixture: DeployingServer;
beforeAll(async () => {
  fixture = await startDeployingServer();
});
afterAll(() => fixture?.close());

/**
 * A Mintlify-layout repository whose home page imports `snippets/hook.jsx`: `hook` is the body of
 * a function run at the build's exit with `out` (the output directory), `fs` and `cp` (child_process).
 */
function hookedRoot(hook: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'docs.json': JSON.stringify({ name: 'Hooked Docs' }),
    'index.mdx': `---\ntitle: Home\n---\n\nimport Hook from '/snippets/hook.jsx';\n\nThe home page.\n\n<Hook />\n`,
    'snippets/hook.jsx': `const fs = process.getBuiltinModule('node:fs');
const cp = process.getBuiltinModule('node:child_process');
process.on('exit', () => {
  const out = process.env.FOLIO_OUT_DIR;
  ${hook}
});
export default function Hook() { return <p className="hook">hooked</p>; }
`,
    ...extra,
  };
}

/** A project with code from a new repository holding `files`; its first deployment, ended. */
async function codeProject(name: string, files: Record<string, string>): Promise<{ projectId: string; slug: string; deployment: Json; repo: ReturnType<DeployingServer['host']['repo']> }> {
  const repo = fixture.host.repo('mallory', name);
  repo.commit(files);
  const slug = uniqueSlug(name);
  const created = await fixture.api('POST', '/v1/projects', { body: { name, slug, source_repo: repo.slug, allow_code: true } });
  expect(created.status).toBe(201);
  const projectId = created.body.id;
  const deployment = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
  return { projectId, slug, deployment, repo };
}

describe('a link inside a folder of the build output', () => {
  it('is refused before the server copies the static files: nothing is written where it points', async () => {
    const victim = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-victim-'));
    try {
      const { deployment } = await codeProject(
        'drop',
        hookedRoot(`fs.mkdirSync(out + '/drop', { recursive: true }); fs.symlinkSync(${JSON.stringify(victim)}, out + '/drop/in');`, {
          'drop/in/planted.txt': 'written by a tenant\n',
        }),
      );
      expect(fs.readdirSync(victim)).toEqual([]);
      expect(deployment.status).toBe('failed');
      expect(deployment.error.code).toBe('build_failed');
      expect(deployment.error.message).toBe(`the build's output holds a symbolic link at "drop/in"; a site holds only files and folders: refused`);
      expect(deployment.error.message).not.toContain(victim);
    } finally {
      fs.rmSync(victim, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('a FIFO in place of a file every site request reads', () => {
  it('is refused at publication; the live site, its neighbours and /healthz keep answering', async () => {
    const { projectId, slug, deployment, repo } = await codeProject('fifo', hookedRoot('// a plain build first'));
    expect(deployment.status).toBe('succeeded');
    const neighbour = await codeProject('neighbour', hookedRoot('// an honest neighbour'));
    expect(neighbour.deployment.status).toBe('succeeded');

    repo.commit(hookedRoot(`const file = out + '/${CONNECT_ORIGINS_FILE}';
  fs.mkdirSync(out + '/_folio', { recursive: true });
  fs.rmSync(file, { force: true });
  cp.execFileSync('mkfifo', [file]);`));
    const hooked = await deploy(fixture.api, projectId);
    expect(hooked.status).toBe('failed');
    expect(hooked.error.message).toBe(`the build's output holds a FIFO at "${CONNECT_ORIGINS_FILE}"; a site holds only files and folders: refused`);

    // More requests at once than libuv has threads: none may wait.
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => getWithHost(fixture.server.url, '/', `${slug}.localhost`)),
      getWithHost(fixture.server.url, '/', `${neighbour.slug}.localhost`),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(9).fill(200));
    expect((await fixture.api('GET', '/healthz')).status).toBe(200);
  }, 240_000);

  it('never blocks a request even when one is in a live build: it counts as no file', async () => {
    const { projectId, slug, deployment } = await codeProject('planted', hookedRoot('// a plain build'));
    expect(deployment.status).toBe('succeeded');
    // As if a build had published one: put straight into the live build's directory.
    const live = path.resolve(path.dirname(liveLink(fixture.server.dataDir, projectId)), fs.readlinkSync(liveLink(fixture.server.dataDir, projectId)));
    const file = path.join(live, CONNECT_ORIGINS_FILE);
    fs.rmSync(file, { force: true });
    execFileSync('mkfifo', [file]);
    const answers = await Promise.all(Array.from({ length: 8 }, () => getWithHost(fixture.server.url, '/', `${slug}.localhost`)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    // A request for the FIFO itself finds no file.
    expect((await getWithHost(fixture.server.url, `/${CONNECT_ORIGINS_FILE}`, `${slug}.localhost`, {}, 'a site path')).status).toBe(404);
    expect((await fixture.api('GET', '/healthz')).status).toBe(200);
  }, 240_000);
});

describe('one huge line of build output', () => {
  it('is cut in the deployment log; the build goes on', async () => {
    // 10 MB in one line, of climbing paths (each one a path to look at in the log).
    const { projectId, deployment } = await codeProject('shout', {
      ...hookedRoot('// the line is printed while the page renders'),
      'snippets/hook.jsx': `process.stdout.write('../x '.repeat(2_000_000) + '\\n');
export default function Hook() { return <p className="hook">hooked</p>; }
`,
    });
    expect(deployment.status).toBe('succeeded');
    const log = await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`);
    expect(log.status).toBe(200);
    const lines: string[] = log.text.split('\n');
    const cut = lines.filter((line) => line.includes('../x ../x'));
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatch(new RegExp(`… \\(line cut at ${MAX_LOG_LINE} characters\\)$`));
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(MAX_LOG_LINE + 200);
  }, 240_000);
});

describe('a build that prints without end', () => {
  it('keeps the deployment log within its budget, says how many lines it left out, and the build goes on', async () => {
    // 24 MiB in 250,000 lines, past the 16 MiB a log keeps.
    const { projectId, deployment } = await codeProject('chatty', {
      ...hookedRoot('// the lines are printed while the page renders'),
      'snippets/hook.jsx': `for (let i = 0; i < 250_000; i++) console.log('line ' + i + ' ' + 'z'.repeat(90));
export default function Hook() { return <p className="hook">hooked</p>; }
`,
    });
    expect(deployment.status).toBe('succeeded');
    const log = await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`);
    expect(log.status).toBe(200);
    // Each kept line also carries its time and the runner's "build: " in the file.
    expect(log.text.length).toBeLessThan(MAX_LOG_BYTES * 1.5);
    expect(log.text).toMatch(/the build printed more than 16 MiB; \d+ later lines were left out of this log/);
    expect(log.text).toContain('line 0 zzz');
    expect(log.text).not.toContain('line 249999 ');
    // Folio's own lines after the build still reach the log.
    expect(log.text).toMatch(/publish: live at /);
  }, 240_000);
});

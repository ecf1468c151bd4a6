// npm run bench:build: builds generated content roots of 100 and 1,000 MDX pages (headings, code,
// lists, badges, snippets) with the full theme and search, and prints wall time, pages/s and peak
// RSS of the build's process tree (median of BENCH_RUNS runs, default 3), with the ratio against
// a 1-page baseline built by the same script. Goals: 1,000 pages < 14 s and < 1.5 GB; 100 pages < 4 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSite } from '../src/site/build.ts';
import { projectDir } from '../src/site/settings.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const SIZES = (process.env.BENCH_SIZES ?? '100,1000').split(',').map(Number);
const GOALS: Record<number, { wallS: number; rssMb?: number }> = { 100: { wallS: 4 }, 1000: { wallS: 14, rssMb: 1536 } };
const benchDir = path.join(projectDir, 'bench-out');
const METHODS = ['get', 'POST', 'put', 'PATCH', 'delete', 'options', 'HEAD'];

function generate(pages: number): string {
  const root = path.join(benchDir, `root-${pages}`);
  fs.rmSync(root, { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('docs.json', JSON.stringify({ name: `Bench ${pages}`, colors: { primary: '#7c3aed' } }));
  write('_snippets/auth.mdx', 'Send `Authorization: Bearer {key}` with every request to {service}.\n\n```bash\ncurl -H "Authorization: Bearer {key}" https://{service}/v1\n```\n');
  write('_snippets/note.mdx', '<Callout kind="tip">Rate limits apply to {plan} plans. <ApiMethod method="get" /></Callout>\n');
  write('content/index.mdx', '# Bench home\n\nThe start.\n');
  for (let i = 1; i < pages; i++) {
    const folder = `section-${String(Math.floor(i / 25)).padStart(2, '0')}`;
    const method = METHODS[i % METHODS.length];
    write(`content/${folder}/page-${i}.mdx`, [
      '---',
      `title: Page ${i} of the benchmark`,
      `description: Generated page number ${i}.`,
      `order: ${i % 25}`,
      '---',
      '',
      `Intro paragraph for page ${i} with **bold**, _emphasis_, \`inline code\` and a [link](/section-00/page-1/).`,
      '',
      `## <ApiMethod method="${method}" /> Endpoint ${i}`,
      '',
      `\`${method.toUpperCase()} /v1/things/${i}\` does something useful with thing ${i}.`,
      '',
      '- first item',
      '- second item with `code`',
      '- third item',
      '',
      '### Request',
      '',
      '```ts',
      `const response = await fetch('/v1/things/${i}', { method: '${method.toUpperCase()}' });`,
      'const body = await response.json();',
      'console.log(body.id, body.name);',
      '```',
      '',
      '### Response',
      '',
      '```json',
      `{ "id": ${i}, "name": "thing ${i}", "tags": ["a", "b"] }`,
      '```',
      '',
      '## Authentication',
      '',
      `<Snippet file="auth.mdx" vars={{ key: "key_${i}", service: "api.example.com" }} />`,
      '',
      `<Snippet file="_snippets/note.mdx" vars={{ plan: "pro" }} />`,
      '',
      '| Field | Type | Meaning |',
      '|---|---|---|',
      `| id | number | The id ${i} |`,
      '| name | string | The name |',
      '',
      '1. Step one',
      '2. Step two',
      '3. Step three',
    ].join('\n'));
  }
  return root;
}

/** Peak RSS (MB) of this process (which checks the content) and every process below it, sampled every 50 ms while `run` is pending. */
async function withPeakRss<T>(run: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  const pageKb = 4;
  let peak = 0;
  const sample = () => {
    const parents = new Map<number, number>();
    const rss = new Map<number, number>();
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parents.set(Number(pid), Number(fields[1]));
        rss.set(Number(pid), Number(fields[21]) * pageKb);
      } catch {
        // the process ended while we looked
      }
    }
    const isDescendant = (pid: number): boolean => {
      for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
      return false;
    };
    let total = 0;
    for (const [pid, kb] of rss) if (pid === process.pid || isDescendant(pid)) total += kb;
    peak = Math.max(peak, total / 1024);
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await run();
    return { value, peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function bench(pages: number) {
  const root = generate(pages);
  const out = path.join(benchDir, `out-${pages}`);
  const walls: number[] = [];
  const rsses: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    const started = performance.now();
    const { value: result, peakMb } = await withPeakRss(() => buildSite({ contentRoot: root, outDir: out, timeoutMs: 600_000 }));
    const wall = (performance.now() - started) / 1000;
    if (!result.ok) throw new Error(`bench build of ${pages} pages failed:\n${result.error?.message}\n${result.log.slice(-20).join('\n')}`);
    walls.push(wall);
    rsses.push(peakMb);
  }
  return { pages, wallS: median(walls), rssMb: median(rsses), walls };
}

fs.mkdirSync(benchDir, { recursive: true });
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`site build benchmark: median of ${RUNS} run(s), full theme + Pagefind, ${os.availableParallelism()} cores, Node ${process.version}, load average ${load()}`);
const baseline = await bench(1);
console.log(`baseline   1 page : ${baseline.wallS.toFixed(2)} s wall, ${baseline.rssMb.toFixed(0)} MB peak RSS (fixed start-up cost)`);
let missed = false;
for (const size of SIZES) {
  const r = await bench(size);
  const goal = GOALS[size];
  const okWall = !goal || r.wallS < goal.wallS;
  const okRss = !goal?.rssMb || r.rssMb < goal.rssMb;
  missed ||= !okWall || !okRss;
  console.log(
    `${String(size).padStart(5)} pages: ${r.wallS.toFixed(2)} s wall (runs ${r.walls.map((w) => w.toFixed(2)).join(', ')}), ` +
      `${(size / r.wallS).toFixed(0)} pages/s, ${r.rssMb.toFixed(0)} MB peak RSS, ${(r.wallS / baseline.wallS).toFixed(2)}x baseline` +
      (goal ? ` | goal < ${goal.wallS} s${goal.rssMb ? ` and < ${goal.rssMb} MB` : ''}: ${okWall && okRss ? 'met' : 'MISSED'}` : ''),
  );
}
console.log(`load average at the end: ${load()} (other processes on the machine slow the figures down)`);
if (missed) process.exitCode = 1;

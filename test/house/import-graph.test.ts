// The layers of docs/architecture.md ("Rooms") and "no import circles", checked over the import
// graph of src/: a change that adds a circle, or an import across a layer the wrong way, fails here
// with the files named. Imports are read as text (static, `export … from`, `import('…')` with a
// literal), type-only ones included: a circle through types still ties the files together.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
const SOURCE = /\.(ts|tsx|mts|astro)$/;
const IMPORTS = [
  /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*\s{},]*?)\s*from\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Each source file of src/ (relative path) with the files of src/ it imports. */
export function importGraph(): Map<string, Set<string>> {
  const files = new Set(sourceFiles(SRC).map((f) => path.relative(ROOT, f)));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const targets = new Set<string>();
    for (const pattern of IMPORTS) {
      for (const [, spec] of text.matchAll(pattern)) {
        const target = spec.startsWith('#src/')
          ? path.join('src', spec.slice('#src/'.length))
          : spec.startsWith('.') ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)) : undefined;
        if (target && files.has(target) && target !== file) targets.add(target);
      }
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The circles of the graph: its strongly connected components of more than one file (Tarjan). */
export function circles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** A file's room: its first folder under src/ (src/server.ts is the composition root). */
const roomOf = (file: string) => file.split('/')[1].replace(/\.ts$/, '');

// What each room may not import (docs/architecture.md, "Rooms"). The composition root, scripts
// and tests may import anything.
const FORBIDDEN: Record<string, string[]> = {
  lib: ['server', 'api', 'cli', 'console', 'hosting', 'service', 'builder', 'site'],
  service: ['server', 'api', 'cli', 'console', 'hosting'],
  hosting: ['server', 'api', 'cli', 'console', 'builder'],
  builder: ['server', 'api', 'cli', 'console', 'service'],
  site: ['server', 'api', 'cli', 'console', 'service', 'builder'],
  api: ['server', 'cli'],
  console: ['server', 'cli'],
  cli: ['server', 'api', 'console', 'hosting', 'service'],
};

/** Each import of `graph` across a layer the wrong way, as `file -> target`. */
function layerViolations(graph: Map<string, Set<string>>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const forbidden = FORBIDDEN[roomOf(file)] ?? [];
    for (const target of targets) if (forbidden.includes(roomOf(target))) wrong.push(`${file} -> ${target}`);
  }
  return wrong;
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('is read: every room has files and imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/server.ts')?.size).toBeGreaterThan(10);
  });

  it('has no import circles', () => {
    expect(circles(graph), 'import circles (move what both sides need into a module both import)').toEqual([]);
  });

  it('keeps the layers of docs/architecture.md', () => {
    expect(layerViolations(graph), 'imports across a layer the wrong way').toEqual([]);
  });

  it('finds a circle and a layer violation when there is one', () => {
    const graphOf = (edges: [string, string][]) => {
      const g = new Map<string, Set<string>>();
      for (const [from, to] of edges) {
        if (!g.has(from)) g.set(from, new Set());
        if (!g.has(to)) g.set(to, new Set());
        g.get(from)!.add(to);
      }
      return g;
    };
    expect(circles(graphOf([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']]))).toEqual([['a', 'b', 'c']]);
    expect(circles(graphOf([['a', 'b'], ['b', 'c']]))).toEqual([]);
    expect(roomOf('src/service/builds/disk.ts')).toBe('service');
    expect(roomOf('src/server.ts')).toBe('server');
    // The builder sits between service and site (docs/architecture.md, "Rooms"); lib under all.
    const layered = graphOf([
      ['src/service/deployments/runner.ts', 'src/builder/build.ts'],
      ['src/builder/build.ts', 'src/site/settings.ts'],
      ['src/builder/sandbox.ts', 'src/lib/link-tree.ts'],
      ['src/site/content-check/check-pool.ts', 'src/builder/build-limits.ts'],
      ['src/builder/build.ts', 'src/service/config.ts'],
      ['src/lib/link-tree.ts', 'src/builder/build-roots.ts'],
    ]);
    expect(layerViolations(layered).sort()).toEqual([
      'src/builder/build.ts -> src/service/config.ts',
      'src/lib/link-tree.ts -> src/builder/build-roots.ts',
      'src/site/content-check/check-pool.ts -> src/builder/build-limits.ts',
    ]);
  });
});

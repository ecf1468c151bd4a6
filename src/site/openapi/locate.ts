// Positions in the author's OpenAPI file: syntax errors with line and column, JSON pointers
// mapped back to lines, so every error names a place the author can open.
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import { OpenApiError } from './errors.ts';

export interface Source {
  file: string;
  /** The parsed file, before any $ref is resolved. */
  raw: unknown;
  /** `file:line:column` of the deepest node of `path` that exists in the file. */
  locate(path: string[]): string | undefined;
}

/**
 * Parses the file's text (JSON or YAML) or throws an OpenApiError with line and column. A JSON file
 * is read with JSON.parse; the positions of its nodes are worked out only when a message needs one
 * (the YAML parser that tracks them is many times slower on a large document).
 */
export function readSource(file: string, text: string, isJson: boolean): Source {
  let positions: { doc: ReturnType<typeof parseDocument>; lineCounter: LineCounter } | undefined;
  const parse = () => {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: !isJson, prettyErrors: false });
    return { doc, lineCounter };
  };
  let raw: unknown;
  if (isJson) {
    raw = checkJsonSyntax(file, text);
  } else {
    positions = parse();
    const [error] = positions.doc.errors;
    if (error) {
      const { line, col } = positions.lineCounter.linePos(error.pos[0]);
      throw new OpenApiError(file, `Cannot parse ${file}:${line}:${col}: ${error.message.split('\n')[0]}`);
    }
    raw = positions.doc.toJS();
  }
  return {
    file,
    raw,
    locate(path) {
      positions ??= parse();
      const offset = offsetOf(positions.doc.contents, path);
      if (offset === undefined) return undefined;
      const { line, col } = positions.lineCounter.linePos(offset);
      return `${file}:${line}:${col}`;
    },
  };
}

function checkJsonSyntax(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const at = position ? lineAndColumn(text, Number(position[1])) : '';
    throw new OpenApiError(file, `Cannot parse ${file}${at}: ${message.replace(/ in JSON at position.*$/, '')}`);
  }
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `:${before.length}:${before[before.length - 1].length + 1}`;
}

function offsetOf(root: Node | null, path: string[]): number | undefined {
  let node: unknown = root;
  let offset = (root as { range?: number[] } | null)?.range?.[0];
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (!pair || !isScalar(pair.key)) return offset;
      offset = pair.key.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as { range?: number[] } | undefined;
      if (!item) return offset;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

/**
 * The path of the value that starts on `line` of `JSON.stringify(value, null, 2)`: the library's
 * error frames number lines of that text. Each property and array item starts its own line there.
 */
export function locateLine(value: unknown, line: number): string[] | undefined {
  let current = 1;
  let found: string[] | undefined;
  const walk = (node: unknown, path: string[]): void => {
    if (found) return;
    if (current === line) {
      found = path;
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const entries = Array.isArray(node) ? node.map((item, index) => [String(index), item] as const) : Object.entries(node);
    const present = entries.filter(([, item]) => item !== undefined);
    if (present.length === 0) return;
    for (const [key, item] of present) {
      current += 1;
      walk(item, [...path, key]);
      if (found) return;
    }
    current += 1; // the closing bracket
  };
  walk(value, []);
  return found;
}

/** `#/paths/~1pets/get` for ['paths', '/pets', 'get']. */
export function toPointer(path: string[]): string {
  return `#/${path.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** The first `$ref` in the file whose target is quoted in `message`, e.g. a missing pointer. */
export function findRefNamedIn(raw: unknown, message: string): string[] | undefined {
  const search = (node: unknown, path: string[]): string[] | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    // External refs are matched by file name: messages show them resolved against another base.
    const target = typeof ref === 'string' ? ref.split('#')[0].split('/').pop() || ref : undefined;
    if (target && message.includes(target)) return [...path, '$ref'];
    for (const [key, child] of Object.entries(node)) {
      const hit = search(child, [...path, key]);
      if (hit) return hit;
    }
    return undefined;
  };
  return search(raw, []);
}

/** Paths of the string values the message quotes in backticks, e.g. a duplicated operationId. */
export function findValuesNamedIn(raw: unknown, message: string): string[][] {
  const quoted = new Set([...message.matchAll(/`([^`]+)`/g)].map((match) => match[1]));
  const found: string[][] = [];
  const search = (node: unknown, path: string[]): void => {
    if (typeof node === 'string' && quoted.has(node)) found.push(path);
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) search(child, [...path, key]);
  };
  if (quoted.size > 0) search(raw, []);
  return found;
}

// Where each value of a JSON text is: line and column by key path, so a problem in a site file
// (docs.json, mint.json) points at `docs.json:12:7` even deep inside arrays. Only called once a
// problem is known; the text has already passed JSON.parse.
//
// The text is tenant-written and this runs on the server's event loop (page writes, reads of
// docs.json, every deployment), so the work stays linear in the text: positions are kept in a tree
// of the text's own keys, never keyed by whole key paths (a long key repeated in every path of its
// items costs quadratic memory, and V8 hashes strings over 16,383 characters by their length alone,
// so such paths all collide in a Map: docs/decisions.md#tenant-sized-input-stays-linear-and-bounded).
import { MAX_LOCATED_KEY_LENGTH } from '../tenant-limits.ts';

export interface TextPosition {
  line: number;
  column: number;
}

interface Located {
  /** Offset of the member's key (an object member) or of the value (an array item, the root). */
  offset: number;
  members?: Map<string, Located>;
  items?: Located[];
}

/** The positions of a JSON text's members and items, looked up by key path (positionOf). */
export class JsonLocations {
  private lineStarts: number[] | undefined;
  private readonly text: string;
  private readonly root: Located;

  constructor(text: string, root: Located) {
    this.text = text;
    this.root = root;
  }

  /** The position of exactly `path` (`['navigation', 'tabs', 0]`), or undefined when it has none. */
  get(path: readonly PropertyKey[]): TextPosition | undefined {
    const found = this.find(path);
    return found && this.position(found.offset);
  }

  has(path: readonly PropertyKey[]): boolean {
    return this.find(path) !== undefined;
  }

  private find(path: readonly PropertyKey[]): Located | undefined {
    let node: Located | undefined = this.root;
    for (const key of path) {
      if (!node) return undefined;
      const name = String(key);
      node = node.items ? (/^(?:0|[1-9]\d*)$/.test(name) ? node.items[Number(name)] : undefined) : node.members?.get(name);
    }
    return node;
  }

  private position(offset: number): TextPosition {
    const lineStarts = (this.lineStarts ??= lineStartsOf(this.text));
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') starts.push(k + 1);
  return starts;
}

/**
 * The position of every member and array item of a JSON text: an object member points at its key,
 * an array item at its value, the root (the empty path) at the start. A member whose key is longer
 * than MAX_LOCATED_KEY_LENGTH has no position, nor has anything inside it: a problem there points
 * at the object holding it.
 */
export function jsonLocations(text: string): JsonLocations {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++; // closing quote
    return JSON.parse(text.slice(start, i)) as string;
  };
  // `into` is undefined below a key that gets no position: the value is only read past.
  const value = (into: Located | undefined, depth: number): void => {
    skipSpace();
    if (depth > 200) throw new Error('too deeply nested');
    const c = text[i];
    if (c === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') return void i++;
      const members = into && (into.members = new Map());
      for (;;) {
        skipSpace();
        const at = i;
        const key = readString();
        let child: Located | undefined;
        if (members && key.length <= MAX_LOCATED_KEY_LENGTH) members.set(key, (child = { offset: at }));
        skipSpace();
        i++; // colon
        value(child, depth + 1);
        skipSpace();
        if (text[i++] === '}') return;
      }
    }
    if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') return void i++;
      const items = into && (into.items = [] as Located[]);
      for (;;) {
        skipSpace();
        let child: Located | undefined;
        if (items) items.push((child = { offset: i }));
        value(child, depth + 1);
        skipSpace();
        if (text[i++] === ']') return;
      }
    }
    if (c === '"') return void readString();
    while (i < text.length && /[^\s,}\]]/.test(text[i]!)) i++; // number, true, false, null
  };
  const root: Located = { offset: 0 };
  try {
    value(root, 0);
  } catch {
    // A position is a courtesy: what was found so far is still right.
  }
  return new JsonLocations(text, root);
}

/** The position of `path`, or of its nearest ancestor that has one. */
export function positionOf(locations: JsonLocations, path: readonly PropertyKey[]): TextPosition {
  for (let n = path.length; n >= 0; n--) {
    const hit = locations.get(path.slice(0, n));
    if (hit) return hit;
  }
  return { line: 1, column: 1 };
}

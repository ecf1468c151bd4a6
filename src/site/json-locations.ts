// Where each value of a JSON text is: line and column by key path, so a problem in a site file
// (docs.json, mint.json) points at `docs.json:12:7` even deep inside arrays. Only called once a
// problem is known; the text has already passed JSON.parse.

export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The position of every member and array item of a JSON text, keyed by its path joined with "."
 * (`navigation.tabs.0.groups.1`): an object member points at its key, an array item at its value.
 * The root is the empty path.
 */
export function jsonLocations(text: string): Map<string, TextPosition> {
  const offsets = new Map<string, number>();
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
  const value = (path: string, depth: number): void => {
    skipSpace();
    if (depth > 200) throw new Error('too deeply nested');
    const c = text[i];
    if (c === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') return void i++;
      for (;;) {
        skipSpace();
        const at = i;
        const key = readString();
        const child = path ? `${path}.${key}` : key;
        offsets.set(child, at);
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
      for (let n = 0; ; n++) {
        skipSpace();
        const child = path ? `${path}.${n}` : String(n);
        offsets.set(child, i);
        value(child, depth + 1);
        skipSpace();
        if (text[i++] === ']') return;
      }
    }
    if (c === '"') return void readString();
    while (i < text.length && /[^\s,}\]]/.test(text[i]!)) i++; // number, true, false, null
  };
  offsets.set('', 0);
  try {
    value('', 0);
  } catch {
    // A position is a courtesy: what was found so far is still right.
  }
  const lineStarts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') lineStarts.push(k + 1);
  const positions = new Map<string, TextPosition>();
  for (const [key, offset] of offsets) {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    positions.set(key, { line: lo + 1, column: offset - lineStarts[lo]! + 1 });
  }
  return positions;
}

/** The position of `path`, or of its nearest ancestor that has one. */
export function positionOf(locations: Map<string, TextPosition>, path: readonly PropertyKey[]): TextPosition {
  for (let n = path.length; n >= 0; n--) {
    const hit = locations.get(path.slice(0, n).map(String).join('.'));
    if (hit) return hit;
  }
  return { line: 1, column: 1 };
}

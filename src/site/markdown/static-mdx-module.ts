// Reads the module @astrojs/mdx's Sätteri processor writes for a page, as data
// (docs/decisions.md#mdx-pages-as-data). The module has one fixed shape:
//
//   import { Fragment as _Fragment, jsx as _jsx, jsxs as _jsxs } from "astro/jsx-runtime";
//   function _createMdxContent(props) {
//     const _components = Object.assign({ p: "p", … }, props.components);   (elements a map may replace)
//     const { Card, Note, … } = props.components || {};                     (or `= _components`)
//     if (!Card) _missingMdxReference("Card", true);                        (one per component)
//     return _jsxs(_Fragment, { children: [ … ] });
//   }
//   function MDXContent(props = {}) { … }            (this exact text)
//   function _missingMdxReference(id, component) { … } (this exact text, when components are used)
//   export const frontmatter = {…};                    (JSON, as @astrojs/mdx's processor writes it)
//   export function getHeadings() { return […]; }      (JSON)
//
// It is read in one pass over the text by the small grammar below, not by a general JavaScript
// parser: a full syntax tree of every page cost more than the rest of the static compile (about
// 1 s of CPU on 1,000 pages of components, `npm run bench:build`). The returned value may hold
// only jsx calls (`_jsx(type, {props})`) whose type is an HTML tag name, Astro's Fragment, an
// element the map may replace or a component the page names, and literal props: strings (quoted
// either way, or a template without substitutions), decimal numbers (with a minus), true, false,
// null, arrays and plain objects. Anything else (an operator, a variable, a comment, a
// substitution, another statement, other text around the boilerplate, a component named as one of
// the module's own names) is NotStatic: the page then takes the MDX module path, where it is
// compiled, checked and refused exactly as before.
import type { StaticNode, StaticPage, StaticValue } from './static-mdx-tree.ts';

/** Not a static page: the reason, for tests and for the reader. */
export class NotStatic extends Error {
  override name = 'NotStatic';
}

/** The two functions Sätteri writes around the content, byte for byte; nothing of either is ever run. */
const MDX_CONTENT = `function MDXContent(props = {}) {
    const { wrapper: MDXLayout } = props.components || {};
    return MDXLayout ? _jsx(MDXLayout, Object.assign({}, props, { children: _jsx(_createMdxContent, props) })) : _createMdxContent(props);
}`;
const MISSING_REFERENCE = `function _missingMdxReference(id, component) {
    throw new Error("Expected " + (component ? "component" : "object") + " \`" + id + "\` to be defined: you likely forgot to import, pass, or provide it.");
}`;

const JSX_RUNTIME = 'astro/jsx-runtime';
/**
 * Names the module binds or reads itself. A page's component may have one of these names (MDX reads
 * `<_Fragment>`, `<_components>` or `<Object />` as components): its `const` would then hide the
 * runtime's name in the whole content function, or declare one twice, and the names would no longer
 * mean what this reader takes them to mean.
 */
const MODULE_NAMES = new Set(['props', '_components', 'Object', '_createMdxContent', 'MDXContent', '_missingMdxReference']);
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/y;
/** A decimal literal as JSON writes numbers (no leading zeros, no separators, hex or bigint). */
const NUMBER = /(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_$.])/y;
const isIdentifierChar = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '$');

/** What the content function declared: the jsx runtime's names, the page's components, the replaceable elements. */
interface Scope {
  runtime: Map<string, string>;
  components: Map<string, string>;
  overridable: Set<string>;
}

class Reader {
  private i = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  fail(what: string): never {
    throw new NotStatic(`${what} at offset ${this.i}: ${JSON.stringify(this.text.slice(this.i, this.i + 80))}`);
  }

  skipSpace(): void {
    const text = this.text;
    let i = this.i;
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 9 || c === 13; c = text.charCodeAt(++i));
    this.i = i;
  }

  /** Reads `token` (punctuation or a word, which must end there) after any space; false if it is not next. */
  eat(token: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(token, this.i)) return false;
    if (isIdentifierChar(token.at(-1)) && isIdentifierChar(this.text[this.i + token.length])) return false;
    this.i += token.length;
    return true;
  }

  expect(token: string): void {
    if (!this.eat(token)) this.fail(`expected ${token}`);
  }

  identifier(): string {
    this.skipSpace();
    IDENTIFIER.lastIndex = this.i;
    const name = IDENTIFIER.exec(this.text)?.[0];
    if (name === undefined) this.fail('expected a name');
    this.i += name.length;
    return name;
  }

  peek(): string | undefined {
    this.skipSpace();
    return this.text[this.i];
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.i === this.text.length;
  }

  /** The rest of the line, which must end in `end` (@astrojs/mdx's processor writes each export on one line). */
  lineEndingIn(end: string): string {
    this.skipSpace();
    const newline = this.text.indexOf('\n', this.i);
    const line = this.text.slice(this.i, newline === -1 ? undefined : newline);
    if (!line.endsWith(end)) this.fail(`expected a line ending in ${end}`);
    this.i += line.length;
    return line.slice(0, -end.length);
  }

  /** A string literal: "…", '…' or `…` without substitutions, with JavaScript's escapes. */
  string(): string {
    this.skipSpace();
    const quote = this.text[this.i]!;
    if (quote === '"') {
      // What Sätteri writes: JSON's escapes, which JSON.parse reads as JavaScript does (JSON is a
      // subset of JavaScript); anything else (a tab, \v, \x41, \u{…}) is read below.
      let end = this.text.indexOf('"', this.i + 1);
      while (end !== -1 && backslashesBefore(this.text, end) % 2 === 1) end = this.text.indexOf('"', end + 1);
      if (end === -1) this.fail('an unterminated string');
      try {
        const value = JSON.parse(this.text.slice(this.i, end + 1)) as string;
        this.i = end + 1;
        return value;
      } catch {
        // read by the general loop
      }
    }
    let out = '';
    let j = this.i + 1;
    for (;;) {
      let stop = j;
      while (stop < this.text.length && this.text[stop] !== quote && this.text[stop] !== '\\') stop++;
      if (stop === this.text.length) this.fail('an unterminated string');
      const plain = this.text.slice(j, stop);
      if (quote === '`') {
        if (plain.includes('${')) this.fail('a template with a substitution');
        out += plain.replace(/\r\n?/g, '\n'); // a template's cooked value
      } else {
        if (/[\n\r]/.test(plain)) this.fail('a line break in a string');
        out += plain;
      }
      if (this.text[stop] === quote) {
        this.i = stop + 1;
        return out;
      }
      const [value, length] = escape(this.text, stop);
      out += value;
      j = stop + length;
    }
  }

  number(): number {
    this.skipSpace();
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text)?.[0];
    if (match === undefined) this.fail('a number that is not a plain decimal');
    const n = Number(match);
    if (!Number.isFinite(n)) this.fail('a number too large');
    this.i += match.length;
    return n;
  }

  /** A literal (no arrays or objects): what a missing-reference call passes. */
  literal(): string | number | boolean | null {
    const c = this.peek();
    if (c === '"' || c === "'" || c === '`') return this.string();
    if (c !== undefined && c >= '0' && c <= '9') return this.number();
    if (this.eat('-')) return -this.number();
    if (this.eat('true')) return true;
    if (this.eat('false')) return false;
    if (this.eat('null')) return null;
    return this.fail('a value that is not a literal');
  }

  value(scope: Scope): StaticValue {
    const c = this.peek();
    if (c === '[') return this.array(scope);
    if (c === '{') return { o: this.object(scope) };
    if (c !== undefined && /[A-Za-z_$]/.test(c)) {
      const name = this.identifier();
      if (name === 'true' || name === 'false') return name === 'true';
      if (name === 'null') return null;
      return this.call(scope, name);
    }
    return this.literal();
  }

  array(scope: Scope): StaticValue[] {
    this.expect('[');
    const out: StaticValue[] = [];
    if (this.eat(']')) return out;
    do out.push(this.value(scope));
    while (this.eat(','));
    this.expect(']');
    return out;
  }

  object(scope: Scope): Record<string, StaticValue> {
    this.expect('{');
    const out: Record<string, StaticValue> = Object.create(null);
    if (this.eat('}')) return out;
    do {
      const c = this.peek();
      const key = c === '"' || c === "'" ? this.string() : this.identifier();
      if (key === '__proto__' || Object.hasOwn(out, key)) this.fail('an object key that is not a plain name');
      this.expect(':');
      out[key] = this.value(scope);
    } while (this.eat(','));
    this.expect('}');
    return out;
  }

  /** `_jsx(type, {props})` (or `_jsxs`): the only call the tree may hold. */
  call(scope: Scope, callee: string): StaticNode {
    const fn = scope.runtime.get(callee);
    if (fn !== 'jsx' && fn !== 'jsxs') this.fail('a call that is not a jsx call');
    this.expect('(');
    let node: Omit<StaticNode, 'p'>;
    const quote = this.peek();
    if (quote === '"' || quote === "'") {
      node = { t: 'e', n: this.string() };
    } else {
      const path = [this.identifier()];
      while (this.eat('.')) path.push(this.identifier());
      const [head, ...rest] = path as [string, ...string[]];
      const component = scope.components.get(head);
      if (rest.length === 0 && scope.runtime.get(head) === 'Fragment') node = { t: 'f' };
      else if (head === '_components' && rest.length === 1 && scope.overridable.has(rest[0]!)) node = { t: 'o', n: rest[0]! };
      else if (component !== undefined) node = { t: 'c', n: [component, ...rest] };
      else this.fail('a jsx call of something that is not a component of the page');
    }
    this.expect(',');
    if (this.peek() !== '{') this.fail('jsx props that are not an object');
    const props = this.object(scope);
    this.expect(')');
    return { ...node, p: props };
  }

  /** `import { Fragment as _Fragment, jsx as _jsx } from "astro/jsx-runtime";` */
  runtimeImport(): Map<string, string> {
    const runtime = new Map<string, string>();
    this.expect('import');
    this.expect('{');
    do {
      const imported = this.identifier();
      const local = this.eat('as') ? this.identifier() : imported;
      if (runtime.has(local) || MODULE_NAMES.has(local)) this.fail(`an import of ${local}, a name bound already`);
      runtime.set(local, imported);
    } while (this.eat(','));
    this.expect('}');
    this.expect('from');
    if (this.peek() !== '"' || this.string() !== JSX_RUNTIME) this.fail(`an import of something other than ${JSX_RUNTIME}`);
    this.expect(';');
    return runtime;
  }

  /** `const _components = Object.assign({ p: "p", … }, props.components);` after `const`: the element names. */
  overridableElements(): Set<string> {
    this.expect('=');
    this.expect('Object');
    this.expect('.');
    this.expect('assign');
    this.expect('(');
    this.expect('{');
    const names = new Set<string>();
    if (!this.eat('}')) {
      do {
        const name = this.identifier();
        // In an object literal this key sets the prototype: `_components.__proto__` would not be the element.
        if (name === '__proto__') this.fail('a replaceable element named __proto__');
        this.expect(':');
        if (this.peek() !== '"' || this.string() !== name) this.fail('a replaceable element other than itself');
        names.add(name);
      } while (this.eat(','));
      this.expect('}');
    }
    this.expect(',');
    this.propsComponents();
    this.expect(')');
    this.expect(';');
    return names;
  }

  propsComponents(): void {
    this.expect('props');
    this.expect('.');
    this.expect('components');
  }

  /** `{ A, B: C }` then `= props.components || {};` or `= _components;`: local name → key of the map. */
  componentNames(scope: Scope, haveOverridable: boolean): void {
    this.expect('{');
    do {
      const key = this.identifier();
      const local = this.eat(':') ? this.identifier() : key;
      if (scope.runtime.has(local) || MODULE_NAMES.has(local) || scope.components.has(local)) this.fail(`a component named ${local}, a name the module binds itself`);
      // Destructuring reads `__proto__` and the like from any object, which the renderer (own keys only) does not.
      if (key in Object.prototype) this.fail(`a component named ${key}, a property of every object`);
      scope.components.set(local, key);
    } while (this.eat(','));
    this.expect('}');
    this.expect('=');
    if (haveOverridable && this.eat('_components')) {
      this.expect(';');
      return;
    }
    this.propsComponents();
    this.expect('||');
    this.expect('{');
    this.expect('}');
    this.expect(';');
  }

  /** `if (!Card) _missingMdxReference("Card", true);`: the renderer throws the same error itself. */
  missingReferenceCheck(): void {
    this.expect('(');
    this.expect('!');
    this.identifier();
    this.expect(')');
    this.expect('_missingMdxReference');
    this.expect('(');
    do this.literal();
    while (this.eat(','));
    this.expect(')');
    this.expect(';');
  }

  /** `function _createMdxContent(props) { … return <tree>; }`: the tree. */
  content(runtime: Map<string, string>): StaticValue {
    this.expect('function');
    this.expect('_createMdxContent');
    this.expect('(');
    this.expect('props');
    this.expect(')');
    this.expect('{');
    const scope: Scope = { runtime, components: new Map(), overridable: new Set() };
    let haveOverridable = false;
    for (;;) {
      if (this.eat('const')) {
        if (!haveOverridable && this.eat('_components')) {
          scope.overridable = this.overridableElements();
          haveOverridable = true;
        } else {
          this.componentNames(scope, haveOverridable);
        }
      } else if (this.eat('if')) {
        this.missingReferenceCheck();
      } else if (this.eat('return')) {
        const tree = this.value(scope);
        this.expect(';');
        this.expect('}');
        return tree;
      } else {
        this.fail('a statement that is not a declaration, a check or the return');
      }
    }
  }
}

function backslashesBefore(text: string, at: number): number {
  let n = 0;
  while (text[at - 1 - n] === '\\') n++;
  return n;
}

/** The value of the escape sequence at `at` (a backslash) in a string literal, and its length. */
function escape(text: string, at: number): [string, number] {
  const c = text[at + 1];
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v' };
  if (c === undefined) throw new NotStatic('a string that ends in a backslash');
  if (Object.hasOwn(simple, c)) return [simple[c]!, 2];
  if (c === '0' && !/[0-9]/.test(text[at + 2] ?? '')) return ['\0', 2];
  if (/[0-9]/.test(c)) throw new NotStatic('a legacy octal escape');
  if (c === 'x') {
    const hex = /^[0-9a-fA-F]{2}/.exec(text.slice(at + 2, at + 4))?.[0];
    if (!hex) throw new NotStatic('a malformed \\x escape');
    return [String.fromCharCode(parseInt(hex, 16)), 4];
  }
  if (c === 'u') {
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(at + 2, at + 10));
    if (braced) {
      const code = parseInt(braced[1]!, 16);
      if (code > 0x10ffff) throw new NotStatic('a code point out of range');
      return [String.fromCodePoint(code), 2 + braced[0].length];
    }
    const hex = /^[0-9a-fA-F]{4}/.exec(text.slice(at + 2, at + 6))?.[0];
    if (!hex) throw new NotStatic('a malformed \\u escape');
    return [String.fromCharCode(parseInt(hex, 16)), 6];
  }
  // A line continuation adds nothing; any other character stands for itself.
  if (c === '\r') return ['', text[at + 2] === '\n' ? 3 : 2];
  if (c === '\n' || c === '\u2028' || c === '\u2029') return ['', 2];
  return [c, 2];
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotStatic('an export that is not JSON');
  }
}

const isNode = (v: StaticValue): v is StaticNode => typeof v === 'object' && v !== null && !Array.isArray(v) && 't' in v;

/**
 * The tree of an MDX module as @astrojs/mdx's Sätteri processor writes it, or NotStatic when any
 * part of it is more than data. `code` is only read, never run.
 */
export function moduleToTree(code: string): StaticPage {
  const reader = new Reader(code);
  const tree = reader.content(reader.runtimeImport());
  if (!isNode(tree)) return reader.fail('a content function that does not return an element');
  if (!reader.eat(MDX_CONTENT)) reader.fail('another MDXContent');
  reader.eat(MISSING_REFERENCE);
  // @astrojs/mdx's processor writes both with JSON.stringify, each on a line of its own.
  reader.expect('export');
  reader.expect('const');
  reader.expect('frontmatter');
  reader.expect('=');
  const frontmatter = json(reader.lineEndingIn(';'));
  reader.expect('export');
  reader.expect('function');
  reader.expect('getHeadings');
  reader.expect('(');
  reader.expect(')');
  reader.expect('{');
  reader.expect('return');
  const headings = json(reader.lineEndingIn('; }'));
  if (!reader.atEnd()) reader.fail('more after the exports');
  if (typeof frontmatter !== 'object' || frontmatter === null || Array.isArray(frontmatter) || !Array.isArray(headings)) throw new NotStatic('no frontmatter or headings');
  return { tree, frontmatter: frontmatter as Record<string, unknown>, headings };
}

// Containers that build their own controls from their children (Tabs from its Tab panels, CodeGroup
// from its code blocks) read the children's rendered HTML: Astro gives a parent its slot as one
// string. These helpers find the top-level elements of that string and edit their opening tags.

/** Elements that never have a closing tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Elements whose content is text up to their closing tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

export interface HtmlElementPart {
  /** Lower-case tag name. */
  tag: string;
  /** The whole opening tag, `<div class="…">`. */
  open: string;
  /** The element's full HTML, opening to closing tag. */
  html: string;
}

/** Index just past the `>` of the tag starting at `from` (quotes respected), or the length when it never closes. */
export function tagEnd(html: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return html.length;
}

/**
 * The top-level elements of `html`, in order, and the text between them (whitespace, or a stray
 * paragraph an author wrote between two tabs) as `text` parts.
 */
export function topLevelParts(html: string): (HtmlElementPart | { text: string })[] {
  const parts: (HtmlElementPart | { text: string })[] = [];
  let depth = 0;
  let start = -1;
  let open = '';
  let tag = '';
  let textStart = 0;
  let i = 0;
  while (i < html.length) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/.exec(html.slice(i, i + 64));
    if (!m) {
      i++;
      continue;
    }
    const end = tagEnd(html, i);
    const name = (m[2] ?? '').toLowerCase();
    const closing = m[1] === '/';
    const selfClosing = html[end - 2] === '/';
    if (!closing) {
      if (depth === 0) {
        if (i > textStart) parts.push({ text: html.slice(textStart, i) });
        start = i;
        open = html.slice(i, end);
        tag = name;
      }
      if (VOID.has(name) || selfClosing) {
        if (depth === 0) {
          parts.push({ tag, open, html: open });
          textStart = end;
        }
      } else if (RAW_TEXT.has(name)) {
        const close = html.toLowerCase().indexOf(`</${name}`, end);
        const after = close < 0 ? html.length : tagEnd(html, close);
        if (depth === 0) {
          parts.push({ tag, open, html: html.slice(start, after) });
          textStart = after;
        }
        i = after;
        continue;
      } else depth++;
    } else if (depth > 0) {
      depth--;
      if (depth === 0) {
        parts.push({ tag, open, html: html.slice(start, end) });
        textStart = end;
      }
    }
    i = end;
  }
  if (textStart < html.length) parts.push({ text: html.slice(textStart) });
  return parts;
}

/** The value of attribute `name` in an opening tag (entities left as written), or undefined. */
export function attributeOf(openTag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}(?:=(?:"([^"]*)"|'([^']*)'|([^\\s>]+)))?(?=[\\s/>])`, 'i').exec(openTag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : undefined;
}

/** True when the opening tag's class list has `name`. */
export function hasClass(openTag: string, name: string): boolean {
  return (attributeOf(openTag, 'class') ?? '').split(/\s+/).includes(name);
}

/** The element with `attributes` (already escaped) added to its opening tag. */
export function withAttributes(part: HtmlElementPart, attributes: string): string {
  const close = part.open.endsWith('/>') ? part.open.length - 2 : part.open.length - 1;
  return `${part.open.slice(0, close)} ${attributes}${part.open.slice(close)}${part.html.slice(part.open.length)}`;
}

/** Plain text of some HTML: tags removed and the common entities decoded. */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''));
}

/**
 * Text with its character references decoded. An attribute value Astro wrote keeps `<` and `>`
 * as they are (it escapes only `&` and `"`), so a value read back from an opening tag is decoded
 * with this and escaped again before it goes into element content.
 */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x?[0-9a-f]+|lt|gt|amp|quot|apos|nbsp);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };
    if (e[0] !== '#') return named[e.toLowerCase()] ?? '';
    const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Escapes text for an HTML attribute value or element content. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

let counter = 0;
/** An id unique within the build (and so within the page) for ARIA relations. */
export function uniqueId(prefix: string): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}-${counter.toString(36)}`;
}

// Markup that runs script in a reader's browser: `javascript:` (and `vbscript:`) URLs, `data:` URLs
// where a browser would open them as a page, script-like elements and event handler attributes.
// Untrusted content may hold none of them.

/** Elements that run code or change the page's origin, base or metadata. */
export const FORBIDDEN_ELEMENTS = ['script', 'style', 'iframe', 'object', 'embed', 'base', 'meta', 'link'] as const;
/** The opening of a forbidden element in HTML source (capture: its name). */
export const FORBIDDEN_ELEMENT_SOURCE = `<\\s*(${FORBIDDEN_ELEMENTS.join('|')})\\b`;
/** An event handler attribute in HTML source: a name starts after white space, a `/` or a quoted value (`<img/onerror=…>`). */
export const EVENT_HANDLER_SOURCE = `[\\s/"'](on[a-z]+)\\s*=`;

const SCRIPT_SCHEME = /(?:javascript|vbscript):/gi;

/**
 * Text as a browser reads it inside an attribute: numeric character references and the named
 * ones that spell a URL's punctuation decoded (no named reference decodes to an ASCII letter),
 * then tab and newline removed, as the URL parser removes them.
 */
function asBrowserReadsIt(text: string): string {
  return text
    .replace(/&#x0*([0-9a-f]{1,6});?/gi, (_, hex: string) => String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff)))
    .replace(/&#0*([0-9]{1,7});?/g, (_, dec: string) => String.fromCodePoint(Math.min(Number(dec), 0x10ffff)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '')
    .replace(/[\t\n\r]/g, '');
}

/** True when `text` (an attribute value, a URL or a raw HTML fragment) holds a script URL anywhere. */
export function containsScriptUrl(text: string): boolean {
  return countScriptUrls(text) > 0;
}

/** True when the URL `url` itself (a link's or an image's) would run script: its scheme is javascript: or vbscript:. */
export function isScriptUrl(url: string): boolean {
  return /^(?:javascript|vbscript):/i.test(urlAsRead(url));
}

/**
 * Attributes and props whose value a browser opens as a document: a link's target, a form's
 * action, an `<iframe>`'s or `<embed>`'s address. A `data:` URL there is a page (HTML or SVG with
 * script) that the site serves as if it were its own, so it is refused as javascript: is. Mintlify's
 * `href` props (Card, Tile, Tooltip) are link targets too.
 */
const LINK_TARGET_ATTRIBUTES = new Set(['href', 'xlink:href', 'xlinkhref', 'action', 'formaction', 'src', 'data', 'ping']);
/**
 * SVG animation elements and the attributes whose values they set another attribute to: `<set
 * attributeName="href" to="data:…">` inside an `<a>` makes that link's target, so a data: URL
 * there is refused as in the href itself.
 */
const ANIMATION_ELEMENTS = new Set(['set', 'animate', 'animatemotion', 'animatetransform']);
const ANIMATION_VALUES = new Set(['to', 'from', 'by', 'values']);
/** Of those, the ones that are media on these elements (an image, not a page): `data:image/…` stays allowed. */
const MEDIA_SRC_ELEMENTS = new Set(['img', 'image', 'video', 'audio', 'source', 'track', 'input']);

/** The scheme-less start of a URL as the browser reads it: decoded, tab/newline and leading C0/space removed. */
function urlAsRead(url: string): string {
  // eslint-disable-next-line no-control-regex
  return asBrowserReadsIt(url).replace(/^[\x00-\x20]+/, '');
}

/** True when `url` is a `data:` URL (any case, spaces before it, entities inside its scheme). */
export function isDataUrl(url: string): boolean {
  return /^data:/i.test(urlAsRead(url));
}

/**
 * True when `url` may not be a link's target: a script URL or a `data:` URL (a page of its own,
 * `data:text/html,<script>…` or an SVG, opened as a top-level document or frame).
 */
export function isForbiddenLinkUrl(url: string): boolean {
  return isScriptUrl(url) || isDataUrl(url);
}

/**
 * True when `url` may not be an image's address: a script URL, or a `data:` URL that is not an
 * image (`data:image/png;base64,…` inline images are content, as on Mintlify; an image element
 * never runs what it shows, an SVG's script included).
 */
export function isForbiddenImageUrl(url: string): boolean {
  return isScriptUrl(url) || (isDataUrl(url) && !/^data:image\//i.test(urlAsRead(url)));
}

/**
 * Which kind of URL attribute `attribute` is on `element` (case-insensitive): `link` (a document
 * is opened), `media` (an image, video or sound is shown), or undefined for any other attribute.
 */
export function urlAttributeKind(element: string, attribute: string): 'link' | 'media' | undefined {
  const name = attribute.toLowerCase();
  if (ANIMATION_ELEMENTS.has(element.toLowerCase()) && ANIMATION_VALUES.has(name)) return 'link';
  if (!LINK_TARGET_ATTRIBUTES.has(name)) return undefined;
  return (name === 'src' || name === 'data') && MEDIA_SRC_ELEMENTS.has(element.toLowerCase()) ? 'media' : 'link';
}

/** True when `value` of `attribute` on `element` holds a `data:` URL it may not hold (see urlAttributeKind). */
export function isForbiddenDataAttribute(element: string, attribute: string, value: string): boolean {
  const kind = urlAttributeKind(element, attribute);
  if (!kind) return false;
  // An animation's `values` is a list (`;`, spelled as an entity too): any item may be the one set.
  const urls = attribute.toLowerCase() === 'values' ? value.split(/;|&#0*59;?|&#x0*3b;?|&semi;/i) : [value];
  return urls.some((url) => isDataUrl(url) && (kind === 'link' || isForbiddenImageUrl(url)));
}

/** A URL attribute in HTML source: the element's name, the attribute's and its value (quoted or not). */
const HTML_URL_ATTRIBUTE = /<\s*([a-z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>?/gi;
// The character before a name is looked behind, not taken: a browser reads `title="t"href=…` as
// two attributes, the quote ending one value and starting the next name.
const ATTRIBUTE = /(?<=[\s/"'])([a-z][\w:.-]*)\s*=\s*("[^"]*"|'[^']*'|[^\s>"']+)/gi;

/** Every attribute of raw HTML whose value is a `data:` URL it may not hold, as `<a href>`. */
export function* forbiddenDataAttributesInHtml(html: string): Generator<{ element: string; attribute: string }> {
  for (const tag of html.matchAll(HTML_URL_ATTRIBUTE)) {
    const element = tag[1]!;
    for (const attr of ` ${tag[2] ?? ''}`.matchAll(ATTRIBUTE)) {
      const raw = attr[2]!;
      const value = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
      if (isForbiddenDataAttribute(element, attr[1]!, value)) yield { element: element.toLowerCase(), attribute: attr[1]!.toLowerCase() };
    }
  }
}

function countScriptUrls(text: string): number {
  return asBrowserReadsIt(text).match(SCRIPT_SCHEME)?.length ?? 0;
}

/** How many script URLs, forbidden elements and event handlers `html` holds: filling placeholders must not add one. */
export function countScriptingMarkup(html: string): number {
  const count = (source: string) => html.match(new RegExp(source, 'gi'))?.length ?? 0;
  return countScriptUrls(html) + count(FORBIDDEN_ELEMENT_SOURCE) + count(EVENT_HANDLER_SOURCE) + [...forbiddenDataAttributesInHtml(html)].length;
}

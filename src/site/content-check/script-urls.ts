// Markup that runs script in a reader's browser: `javascript:` (and `vbscript:`) URLs, script-like
// elements and event handler attributes. Untrusted content may hold none of them.

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
  // eslint-disable-next-line no-control-regex
  return /^(?:javascript|vbscript):/i.test(asBrowserReadsIt(url).replace(/^[\x00-\x20]+/, ''));
}

function countScriptUrls(text: string): number {
  return asBrowserReadsIt(text).match(SCRIPT_SCHEME)?.length ?? 0;
}

/** How many script URLs, forbidden elements and event handlers `html` holds: filling placeholders must not add one. */
export function countScriptingMarkup(html: string): number {
  const count = (source: string) => html.match(new RegExp(source, 'gi'))?.length ?? 0;
  return countScriptUrls(html) + count(FORBIDDEN_ELEMENT_SOURCE) + count(EVENT_HANDLER_SOURCE);
}

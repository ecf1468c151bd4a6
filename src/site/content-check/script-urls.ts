// `javascript:` (and `vbscript:`) URLs run script when a reader clicks a link or a browser loads
// an attribute: untrusted content may not hold them anywhere a browser reads a URL.

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

/** How many script URLs `text` holds: filling placeholders must not add one. */
export function countScriptUrls(text: string): number {
  return asBrowserReadsIt(text).match(SCRIPT_SCHEME)?.length ?? 0;
}

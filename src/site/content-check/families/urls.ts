// The URL family: where a link, an image or a link definition points, and the URLs in attribute
// values. A script URL is refused everywhere, a data: URL where a browser would open it as a page
// (script-urls.ts classifies them); a local image must be an image file (Astro imports it as a
// module) and a relative path must stay inside the content root.
import path from 'node:path';
import { containsScriptUrl, isDataUrl, isForbiddenDataAttribute, isForbiddenImageUrl, isForbiddenLinkUrl, isScriptUrl, urlAttributeKind } from '../script-urls.ts';
import { stringsOf } from '../literals.ts';
import { shorten, type CheckFamily, type Located, type MdNode, type PageCheck, type Report } from '../analysis.ts';

/** Why a data: URL may not be a link's target, and what to write instead. */
const DATA_LINK = 'a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead';
/** Why a data: URL that is not an image may not be an image's address. */
const DATA_IMAGE = 'an inline image must be a data:image/… URL; use one, a file in the content root or an https address instead';

export function urlFamily({ options, report }: PageCheck): CheckFamily {
  // Every definition of an identifier: Markdown uses the first, so none may be left unchecked.
  const definitions = new Map<string, MdNode[]>();
  const imageReferences = new Set<string>();
  const linkReferences = new Set<string>();
  return {
    nodes: {
      image(node) {
        checkImageFile(node, report);
        checkLocalUrl(node, options.file, report);
        checkLinkUrl(node, 'image', report);
      },
      definition(node) {
        if (node.identifier) definitions.set(node.identifier, [...(definitions.get(node.identifier) ?? []), node]);
        checkLocalUrl(node, options.file, report);
        // A script URL is refused wherever it is; a data: URL by the references to it (finish).
        if (node.url && isScriptUrl(node.url)) checkLinkUrl(node, 'link', report);
      },
      imageReference(node) {
        if (node.identifier) imageReferences.add(node.identifier);
      },
      linkReference(node) {
        if (node.identifier) linkReferences.add(node.identifier);
      },
      link(node) {
        checkLinkUrl(node, 'link', report);
      },
    },
    finish() {
      for (const id of imageReferences) {
        for (const definition of definitions.get(id) ?? []) {
          checkImageFile(definition, report);
          checkLinkUrl(definition, 'image', report, true);
        }
      }
      // A definition is an image's address or a link's target depending on what refers to it.
      for (const id of linkReferences) {
        for (const definition of definitions.get(id) ?? []) checkLinkUrl(definition, 'link', report, true);
      }
    },
  };
}

export function dataAttributeMessage(element: string, attribute: string): string {
  return `attribute ${attribute} on <${element}> is not allowed: ${urlAttributeKind(element, attribute) === 'media' ? DATA_IMAGE : DATA_LINK}`;
}

/**
 * A Markdown link (or autolink), image or link definition may not point to a script URL, nor a
 * link to a data: URL; an image may be a `data:image/…` URL. `onlyData`: the script URL was
 * already reported (a definition is checked again as a link target).
 */
function checkLinkUrl(node: MdNode, as: 'link' | 'image', report: Report, onlyData = false) {
  const url = node.url;
  if (!url) return;
  if (isScriptUrl(url)) {
    if (!onlyData) report(node, `URL "${shorten(url)}" is not allowed: javascript: URLs run script in the reader's browser`);
  } else if (as === 'link' ? isForbiddenLinkUrl(url) : isForbiddenImageUrl(url)) {
    report(node, `URL "${shorten(url)}" is not allowed: ${as === 'link' ? DATA_LINK : DATA_IMAGE}`);
  }
}

/**
 * No attribute of an HTML element may carry a script URL (href, src, action, SVG animation values …),
 * nor a link target a data: URL (urlAttributeKind in script-urls.ts). `anyUse`: a value whose use
 * the check cannot see (a Snippet's vars, a snippet component's props, a snippet's export const)
 * may be no data: URL but a raster image.
 */
export function checkScriptAttribute(at: Located, element: string, attrName: string, value: unknown, report: Report, anyUse = false) {
  const problem = urlValueProblem(element, attrName, value, anyUse);
  if (problem) report(at, `attribute ${attrName} on <${element}> is not allowed: ${problem}`);
}

/** Why `value` may not be `attribute`'s value on `element` (see checkScriptAttribute), if it may not. */
export function urlValueProblem(element: string, attrName: string, value: unknown, anyUse: boolean): string | undefined {
  // Arrays and objects reach the HTML as text too (nested arrays flattened): all of it is checked.
  if (containsScriptUrl(typeof value === 'string' ? value : JSON.stringify(value) ?? '')) return 'javascript: URLs run script in the reader\'s browser';
  if (anyUse) {
    const dataUrl = stringsOf(value).some((v) => isDataUrl(v) && !/^\s*data:image\/(?!svg)/i.test(v));
    return dataUrl ? `a snippet's value may end up as a link target, and ${DATA_LINK}` : undefined;
  }
  // An array reaches an attribute as its items joined by commas.
  const text = typeof value === 'string' ? value : Array.isArray(value) ? String(value) : undefined;
  if (text !== undefined && isForbiddenDataAttribute(element, attrName, text)) return urlAttributeKind(element, attrName) === 'media' ? DATA_IMAGE : DATA_LINK;
  return undefined;
}

const IMAGE_FILE = /^[^?#]*\.(?:jpe?g|png|apng|gif|webp|avif|svg|tiff?)$/i;

/**
 * Astro imports every local image of a page (a URL that is not absolute and has no scheme) as a
 * module, as it decodes it: a `./run.mjs`, an extensionless name or a `?worker` query would run
 * code at build time. Only image files are allowed.
 */
function checkImageFile(node: MdNode, report: Report) {
  const url = node.url ?? '';
  if (!url || URL.canParse(url) || url.startsWith('/')) return;
  let decoded: string;
  try {
    decoded = decodeURI(url);
  } catch {
    decoded = url;
  }
  if (IMAGE_FILE.test(decoded) && !decoded.startsWith('/') && !URL.canParse(decoded)) return;
  report(node, `image "${shorten(url)}" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)`);
}

/** A relative image or link-definition URL must stay inside the content root. */
function checkLocalUrl(node: MdNode, file: string, report: Report) {
  const url = node.url ?? '';
  if (!url || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('#')) return;
  if (url.startsWith('/')) return; // served from public/
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponentSafe(url.split(/[?#]/)[0] ?? '')));
  if (target === '..' || target.startsWith('../')) report(node, `path "${url}" points outside the content root`);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

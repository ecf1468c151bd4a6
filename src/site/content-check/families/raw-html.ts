// The raw HTML family: HTML blocks and inline HTML of Markdown pages follow the element rules of
// JSX in MDX (no script-like elements, event handlers, script URLs or data: link targets), and a
// block must not end inside a tag (the Markdown after it would become that tag's attributes).
import { COMPONENT_NAMES } from '../../components/catalog.ts';
import { containsScriptUrl, EVENT_HANDLER_SOURCE, FORBIDDEN_ELEMENT_SOURCE, forbiddenDataAttributesInHtml } from '../script-urls.ts';
import type { CheckFamily, MdNode, PageCheck, Report } from '../analysis.ts';
import { dataAttributeMessage } from './urls.ts';

export function rawHtmlFamily({ report }: PageCheck): CheckFamily {
  return { nodes: { html: (node) => checkRawHtml(node, report) } };
}

/** Raw HTML in Markdown pages follows the same element rules as JSX in MDX. */
function checkRawHtml(node: MdNode, report: Report) {
  const html = String(node.value ?? '');
  const element = new RegExp(FORBIDDEN_ELEMENT_SOURCE, 'i').exec(html)?.[1];
  if (element) report(node, `the <${element.toLowerCase()}> element is not allowed in Folio content`);
  const handler = new RegExp(EVENT_HANDLER_SOURCE, 'i').exec(html)?.[1];
  if (handler) report(node, `event handler attribute "${handler}" is not allowed`);
  const component = new RegExp(`<(${COMPONENT_NAMES.join('|')})\\b`).exec(html)?.[1];
  if (component) report(node, `<${component}> works in .mdx files only: rename this file to .mdx`);
  if (containsScriptUrl(html)) report(node, 'javascript: URLs are not allowed in Folio content (they run script in the reader\'s browser)');
  for (const { element, attribute } of forbiddenDataAttributesInHtml(html)) report(node, dataAttributeMessage(element, attribute));
  if (endsInsideTag(html)) {
    report(node, 'raw HTML must close the tags it opens: this block ends inside a tag, so the browser would read the text after it as attributes');
  }
}

/**
 * True when a browser reading `html` would still be inside a tag at its end (an open `<a title="`).
 * Markdown output after it (text keeps its quotes) would then become that tag's attributes.
 */
export function endsInsideTag(html: string): boolean {
  let i = 0;
  while (i < html.length) {
    if (html.startsWith('<!--', i)) {
      // As browsers close comments: `<!-->` and `<!--->` are whole comments, `--!>` closes one too.
      const end = /-->|--!>/.exec(html.slice(i + 2));
      if (!end) return false; // an open comment only hides what follows
      i += 2 + end.index + end[0].length;
    } else if (/^<(?:\/?[a-z]|[!?])/i.test(html.slice(i, i + 3))) {
      i = tagEnd(html, i + 1);
      if (i < 0) return true;
    } else i++;
  }
  return false;
}

/** The index after the `>` closing the tag that starts before `from`, or -1 when it never closes. */
function tagEnd(html: string, from: number): number {
  let i = from;
  while (i < html.length) {
    const c = html[i];
    if (c === '>') return i + 1;
    if (c === '=') {
      i++;
      while (/\s/.test(html[i] ?? '')) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close < 0) return -1;
        i = close + 1;
        continue;
      }
      continue;
    }
    i++;
  }
  return -1;
}

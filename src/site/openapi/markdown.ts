// Descriptions in an OpenAPI file are untrusted Markdown: raw HTML is dropped and the result is
// sanitised (no scripts, event handlers or javascript: links), then handed to `set:html`.
//
// A build renders the same few strings again and again (`OK`, `Error`, a shared schema's property
// descriptions on every page that shows it), so each distinct string is rendered once. And GFM's
// extra syntax (tables, strikethrough, autolinks, task lists, footnotes) only starts at a few
// characters: a string without any of them renders the same without GFM's parser, which costs
// most of the parse. And the most common description of all, one line of words with perhaps a
// `code` span, is HTML without a parser (test/openapi/markdown.test.ts renders generated strings
// every way and compares).
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const gfm = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify).freeze();
const commonMark = unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify).freeze();

/**
 * Where any GFM extension could start: `|` (tables), `~` (strikethrough), `[` (task lists,
 * footnotes), `@`, `://`, `www.`, `mailto:`, `xmpp:` (autolink literals).
 */
const GFM_TRIGGER = /[|~@[]|:\/\/|www\.|mailto:|xmpp:/i;

/** Whether `markdown` may hold GFM syntax; when not, CommonMark alone renders it the same. */
export function mayUseGfm(markdown: string): boolean {
  return GFM_TRIGGER.test(markdown);
}

/**
 * One line that starts with a letter and holds only words, digits, spaces, simple punctuation and
 * code spans of one backtick (not starting or ending with a space): no block syntax can start
 * there, no inline syntax but the code spans, and nothing in it is escaped in HTML.
 */
const PLAIN_LINE = /^[A-Za-z](?:[A-Za-z0-9 ,.;:?!()/+=%-]|`[A-Za-z0-9,.;:?!()/+=%-](?:[A-Za-z0-9 ,.;:?!()/+=%-]*[A-Za-z0-9,.;:?!()/+=%-])?`)*$/;

/** The HTML of a plain line (PLAIN_LINE, not ending in a space, no GFM), else undefined. */
export function plainLineHtml(markdown: string): string | undefined {
  if (!PLAIN_LINE.test(markdown) || markdown.endsWith(' ') || mayUseGfm(markdown)) return undefined;
  return `<p>${markdown.replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`;
}

/** Rendered strings (the console's preview renders one per keystroke, so the cache is bounded). */
const rendered = new Map<string, string>();
const MAX_CACHED = 20_000;

/** Safe HTML for a Markdown description. */
export function markdownToSafeHtml(markdown: string | undefined): string {
  if (!markdown) return '';
  let html = rendered.get(markdown);
  if (html === undefined) {
    html = plainLineHtml(markdown) ?? renderMarkdown(markdown, mayUseGfm(markdown));
    if (rendered.size >= MAX_CACHED) rendered.clear();
    rendered.set(markdown, html);
  }
  return html;
}

/** `markdown` rendered with GFM or CommonMark alone (no cache). */
export function renderMarkdown(markdown: string, withGfm: boolean): string {
  return String((withGfm ? gfm : commonMark).processSync(markdown));
}

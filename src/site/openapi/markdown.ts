// Descriptions in an OpenAPI file are untrusted Markdown: raw HTML is dropped and the result is
// sanitised (no scripts, event handlers or javascript: links), then handed to `set:html`.
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify).freeze();

/** Safe HTML for a Markdown description. */
export function markdownToSafeHtml(markdown: string | undefined): string {
  if (!markdown) return '';
  return String(processor.processSync(markdown));
}

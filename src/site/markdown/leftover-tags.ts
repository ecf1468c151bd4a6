// Leftover tags in a page's clean Markdown (docs/decisions.md#ai-ready-docs): HTML or JSX that
// reached the `.md` file where a Markdown reader takes it for HTML. The text is parsed as
// CommonMark (the parser the converter uses), so what counts is exactly what a reader sees as
// HTML: code (fenced, in quotes and list items), inline code, escaped `\<` and autolinks are not.
// Used by `npm run count:md-tags` over a build's output and by the tests.
import { markdownToMdast } from 'satteri';

/** One leftover tag: the line it is on (from 1), the tag as written (cut at 80 characters) and its name. */
export interface LeftoverTag {
  line: number;
  tag: string;
  name: string;
}

interface Node {
  type: string;
  value?: string;
  position?: { start: { line: number } };
  children?: Node[];
}

// An opening, closing or self-closing tag, a JSX fragment (`<>`, `</>`) or a comment.
const TAG = /<!--[\s\S]*?-->|<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>|<\/?>/g;

/** The leftover tags of one Markdown text, in order. */
export function leftoverTags(markdown: string): LeftoverTag[] {
  const found: LeftoverTag[] = [];
  const visit = (node: Node) => {
    if (node.type === 'html' && node.value) {
      const start = node.position?.start.line ?? 1;
      for (const match of node.value.matchAll(TAG)) {
        const tag = match[0];
        const line = start + (node.value.slice(0, match.index).match(/\n/g)?.length ?? 0);
        const name = tag.startsWith('<!--') ? '!--' : /^<\/?([^\s/>]*)/.exec(tag)![1] || '<>';
        found.push({ line, tag: tag.length > 80 ? `${tag.slice(0, 77)}...` : tag, name });
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(markdownToMdast(markdown) as unknown as Node);
  return found;
}

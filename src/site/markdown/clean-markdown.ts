// Clean Markdown of a page (docs/decisions.md#ai-ready-docs): the MDX source with every
// component turned into the plain Markdown a reader (or an AI tool) understands without the
// site's renderer, and no JSX, HTML, imports or expressions left. Markdown the author wrote
// stays byte for byte: only the spans of JSX nodes are replaced, the text between them is kept.
// The .md page of every page, llms-full.txt and the site's MCP server all read this one rendering.
import { parseExpressionAt } from 'acorn';
import type { Node as EstreeNode } from 'estree';
import { markdownToMdast, mdxToMdast } from 'satteri';
import { isLiteral, literalValue } from '../content-check/literals.ts';
import { normalizeMethod } from '../components/catalog.ts';

export interface MdNode {
  type: string;
  name?: string | null;
  attributes?: Array<{ type: string; name?: string; value?: unknown }>;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}


/** Deeper than this, a component's content is kept as its bare text (bounds the work per level). */
const MAX_COMPONENT_DEPTH = 32;

// A Map, not an object: a component may be named like an object's own property (<constructor>, <toString>).
const CALLOUTS = new Map(['Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger'].map((name) => [name, name]));

export interface CleanMarkdownOptions {
  /** The Markdown a `<Snippet file=…>` without children stands for (llms-markdown.ts); none when absent. */
  snippet?: (node: MdNode) => string;
}

/** `source` (a page's MDX, or Markdown when `isMdx` is false) as clean Markdown. */
export function toCleanMarkdown(source: string, isMdx = true, options: CleanMarkdownOptions = {}): string {
  let tree: MdNode;
  try {
    tree = (isMdx ? mdxToMdast(source) : markdownToMdast(source)) as unknown as MdNode;
  } catch {
    // The content check refuses MDX that does not parse; a plain .md page that fails keeps its text, tags stripped.
    return tidy(source.replace(/<[^<>]*>/g, ''));
  }
  return tidy(new CleanMarkdown(source, options).node(tree, 0));
}

class CleanMarkdown {
  private readonly src: string;
  private readonly options: CleanMarkdownOptions;
  constructor(src: string, options: CleanMarkdownOptions) {
    this.src = src;
    this.options = options;
  }

  node(node: MdNode, depth: number): string {
    switch (node.type) {
      case 'mdxjsEsm':
        return '';
      case 'mdxFlowExpression':
      case 'mdxTextExpression': {
        // `{"text"}` or `{42}` shows its value; anything else (comments, variables) shows nothing.
        const value = literalSource(String((node as { value?: unknown }).value ?? ''));
        return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
      }
      case 'html':
        return stripTags(String((node as { value?: unknown }).value ?? ''));
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        return depth > MAX_COMPONENT_DEPTH ? plainText(node) : this.component(node, depth + 1);
      default:
        return hasMarkup(node) ? this.splice(node, depth) : this.slice(node);
    }
  }

  private slice(node: MdNode): string {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    return start === undefined || end === undefined ? plainText(node) : this.src.slice(start, end);
  }

  /** The node's source with each child's span replaced by the child's rendering (continuation lines indented as the child's first). */
  private splice(node: MdNode, depth: number, from = node.position?.start.offset, to = node.position?.end.offset): string {
    const children = node.children ?? [];
    if (from === undefined || to === undefined) return children.map((c) => this.node(c, depth)).join('');
    let out = '';
    let at = from;
    for (const child of children) {
      const start = child.position?.start.offset;
      const end = child.position?.end.offset;
      if (start === undefined || end === undefined || start < at) continue;
      out += this.src.slice(at, start);
      const fresh = child.type === 'code' ? this.fencedCode(child) : undefined;
      if (isElement(child) || fresh !== undefined) {
        // A rendering is fresh text: its lines after the first get the indentation (or quote
        // marks) of the line it starts on. Source slices carry their own indentation.
        const lineStart = this.src.lastIndexOf('\n', start - 1) + 1;
        // Quote marks and a list marker's width carry over; a tag or text before it on the line does not.
        const lead = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?/.exec(this.src.slice(lineStart, start))![0];
        const indent = lead.replace(/[^\s>]/g, ' ');
        // A blank line of code gets the quote marks only: no trailing spaces added to the code.
        out += (fresh ?? this.node(child, depth)).replace(/\n(?=(\n|$)?)/g, (_, blank: string | undefined) => `\n${blank === undefined ? indent : indent.trimEnd()}`);
      } else out += this.node(child, depth);
      at = end;
    }
    return out + this.src.slice(at, to);
  }

  /**
   * An indented fenced code block inside markup, written afresh from its parsed value: its source
   * lines may be indented less than its fence (MDX takes the fence's indentation off each line as
   * far as it goes), so the slice, dedented with the text around it, could leave the fence indented
   * by four spaces after a paragraph, where Markdown reads it as text. Undefined for a block that
   * starts its line or is not fenced: its source slice stays as written.
   */
  private fencedCode(node: MdNode): string | undefined {
    const column = this.column(node);
    const opening = /^(`{3,}|~{3,})[^\n]*/.exec(this.slice(node));
    if (!column || !opening) return undefined;
    const value = String((node as { value?: unknown }).value ?? '');
    // The closing fence as long as the opening one, and longer than any fence-like line inside.
    let fence = opening[1]!;
    for (const run of value.match(/^[ \t]*(`{3,}|~{3,})/gm) ?? []) if (run.trim()[0] === fence[0] && run.trim().length >= fence.length) fence = fence[0]!.repeat(run.trim().length + 1);
    const info = opening[0].slice(opening[1]!.length);
    return `${fence}${info}\n${value ? `${value}\n` : ''}${fence}`;
  }

  /** A component's children as Markdown, their common indentation removed. */
  private inner(node: MdNode, depth: number): string {
    const children = node.children ?? [];
    const first = children[0]?.position?.start.offset;
    const last = children.at(-1)?.position?.end.offset;
    if (first === undefined || last === undefined) return children.map((c) => this.node(c, depth)).join('').trim();
    const text = this.splice(node, depth, first, last);
    const lineStart = this.src.lastIndexOf('\n', first - 1) + 1;
    if (/^[ \t]*$/.test(this.src.slice(lineStart, first))) return dedent(' '.repeat(first - lineStart) + text).trim();
    // Content on the opening tag's line (`<Note>text`): the lines after it set the indentation.
    const cut = text.indexOf('\n');
    return cut < 0 ? text.trim() : `${text.slice(0, cut)}\n${dedent(text.slice(cut + 1))}`.trim();
  }

  private component(node: MdNode, depth: number): string {
    const name = node.name ?? '';
    const text = (prop: string) => {
      const value = attribute(node, prop);
      return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
    };
    // Prop text is the author's plain text: escaped, so that `title="<img …>"` stays text in any Markdown reader.
    const label = (prop: string) => escapeText(text(prop));
    const code = (prop: string) => (text(prop) ? `\`${text(prop).replace(/`/g, '')}\`` : '');
    const url = (prop: string) => text(prop).replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    // A boolean prop: present without a value (`required`) or `={true}`.
    const flag = (prop: string) => node.attributes?.some((a) => a.name === prop) === true && attribute(node, prop) !== false;
    const inner = () => this.inner(node, depth);
    const block = (s: string) => (node.type === 'mdxJsxFlowElement' ? `\n\n${s.trim()}\n\n` : s);
    const section = (title: string, body: string) => block(title ? `#### ${title}\n\n${body}` : body);
    const callout = CALLOUTS.get(name);
    if (callout || name === 'Callout') {
      const kind = callout ?? (escapeText(text('kind')) || 'note');
      const heading = label('title') || kind.charAt(0).toUpperCase() + kind.slice(1);
      return block(quote(`**${heading}:** ${inner()}`));
    }
    switch (name) {
      case 'Tab':
      case 'View':
        return section(label('title'), inner());
      case 'CodeGroup':
      case 'RequestExample':
      case 'ResponseExample':
        return block(this.codeSections(node, depth));
      case 'Accordion':
      case 'Expandable':
      case 'Update':
      case 'Color.Row':
        return section(label('title') || label('label'), [label('description'), inner()].filter(Boolean).join('\n\n'));
      case 'Steps':
        return block((node.children ?? []).filter((c) => c.type === 'mdxJsxFlowElement').map((step, i) => {
          const title = typeof attribute(step, 'title') === 'string' ? escapeText(String(attribute(step, 'title'))) : '';
          return `#### Step ${i + 1}${title ? `: ${title}` : ''}\n\n${this.inner(step, depth + 1)}`;
        }).join('\n\n'));
      case 'Step':
        return section(label('title'), inner());
      case 'Card':
      case 'Tile': {
        const title = label('title') || url('href');
        const link = url('href') ? `[${title}](${url('href')})` : title;
        return block([link ? `**${link}**` : '', label('description'), inner()].filter(Boolean).join('\n\n'));
      }
      case 'ParamField':
      case 'ResponseField': {
        const where = ['path', 'query', 'body', 'header'].find((p) => text(p));
        const field = escapeText(where ? text(where) : text('name'));
        const facts = [code('type'), where && `${where} parameter`, flag('required') && 'required', text('default') && `default: ${code('default')}`, flag('deprecated') && 'deprecated'].filter(Boolean);
        const body = inner();
        return block(`- **${field}**${facts.length ? ` (${facts.join(', ')})` : ''}${body ? `: ${body.replace(/\n/g, '\n  ')}` : ''}`);
      }
      case 'Frame': {
        const caption = label('caption');
        return block([inner(), caption && `*${caption}*`].filter(Boolean).join('\n\n'));
      }
      case 'Tree.Folder':
        return `- ${label('name')}/${(node.children ?? []).length ? `\n  ${inner().replace(/\n/g, '\n  ')}` : ''}\n`;
      case 'Tree.File':
        return `- ${label('name')}\n`;
      case 'Tree':
        return block(inner().replace(/\n{2,}/g, '\n'));
      case 'Color.Item':
        return `- ${label('name')}: ${code('value')}\n`;
      case 'GitHub.Repo':
        return block(`[${label('repo')}](https://github.com/${url('repo')})`);
      case 'Mermaid':
        return block(`\`\`\`mermaid\n${text('chart') || plainText(node)}\n\`\`\``);
      case 'ApiMethod':
        return `\`${normalizeMethod(text('method')) ?? text('method').replace(/`/g, '')}\``;
      case 'Snippet':
        return block((node.children ?? []).length ? inner() : (this.options.snippet?.(node) ?? ''));
      case 'Icon':
      case 'script':
      case 'style':
        return '';
      case 'a':
        return `[${inner()}](${url('href')})`;
      case 'img':
        return block(`![${label('alt')}](${url('src')})`);
      case 'video':
      case 'iframe':
      case 'source':
        return url('src') ? block(`[${label('title') || url('src')}](${url('src')})`) : '';
      case 'br':
        return '\n';
      case 'hr':
        return block('---');
      case 'strong':
      case 'b':
        return `**${inner()}**`;
      case 'em':
      case 'i':
        return `*${inner()}*`;
      case 'code':
        return `\`${plainText(node)}\``;
      case 'pre':
        return block(`\`\`\`\n${plainText(node)}\n\`\`\``);
      case 'li':
        return `- ${inner()}\n`;
      default: {
        const heading = /^h([1-6])$/.exec(name);
        if (heading) return block(`${'#'.repeat(Number(heading[1]))} ${inner()}`);
        // Containers (CardGroup, Columns, Tabs, AccordionGroup, Panel, Visibility …) and inline
        // wrappers (Badge, Tooltip, span …) are their content.
        return block(inner());
      }
    }
  }

  /** A code group's blocks, each under a heading naming it (its title, else its language). */
  private codeSections(node: MdNode, depth: number): string {
    return (node.children ?? [])
      .map((child) => {
        if (child.type !== 'code') return this.node(child, depth).trim();
        const { lang, meta } = child as MdNode & { lang?: string | null; meta?: string | null };
        const title = (meta ?? '').replace(/\{[^}]*\}|\w+=("[^"]*"|\S*)/g, '').trim() || lang || '';
        const code = dedent(' '.repeat(this.column(child)) + this.slice(child));
        return title ? `#### ${title}\n\n${code}` : code;
      })
      .filter(Boolean)
      .join('\n\n');
  }

  private column(node: MdNode): number {
    const start = node.position?.start.offset ?? 0;
    const lineStart = this.src.lastIndexOf('\n', start - 1) + 1;
    return /^[ \t]*$/.test(this.src.slice(lineStart, start)) ? start - lineStart : 0;
  }
}

function isElement(node: MdNode): boolean {
  return node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement';
}

/** Whether a node holds anything that is not plain Markdown (JSX, HTML, ESM, expressions). */
function hasMarkup(node: MdNode): boolean {
  if (/^mdx|^html$/.test(node.type)) return true;
  return node.children?.some(hasMarkup) ?? false;
}

/** The text of a node's leaves, in order (code and text values), with nothing else. */
function plainText(node: MdNode): string {
  const value = (node as { value?: unknown }).value;
  if (node.type === 'mdxjsEsm' || node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') return '';
  if (node.type === 'html') return stripTags(String(value ?? ''));
  if (typeof value === 'string') return value;
  return (node.children ?? []).map(plainText).join(node.type === 'root' || node.type.endsWith('FlowElement') ? '\n\n' : '');
}

/** Plain text made safe inside Markdown: its punctuation that Markdown reads (tags, emphasis, links) backslash-escaped. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>#|]/g, '\\$&');
}

function stripTags(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^<>]*>/g, '');
}

function quote(text: string): string {
  return text.split('\n').map((line) => (line ? `> ${line}` : '>')).join('\n');
}

/** `text` with the indentation common to its non-blank lines removed. */
function dedent(text: string): string {
  const lines = text.split('\n');
  const widths = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = widths.length ? Math.min(...widths) : 0;
  return cut ? lines.map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)![0].length))).join('\n') : text;
}

/** Blank lines collapsed to one and trailing spaces of blank lines dropped, outside fenced code. */
function tidy(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence ? undefined : marker;
    const blank = !line.trim();
    if (!fence && blank && (out.length === 0 || out.at(-1) === '')) continue;
    out.push(!fence && blank ? '' : line);
  }
  return `${out.join('\n').trim()}\n`;
}

/** The value of a literal JavaScript expression (`"text"`, `42`, `{ a: 1 }`), else undefined; nothing is evaluated. */
export function literalSource(source: string): unknown {
  try {
    const expression = parseExpressionAt(source, 0, { ecmaVersion: 'latest' }) as unknown as EstreeNode;
    return isLiteral(expression) ? literalValue(expression) : undefined;
  } catch {
    return undefined;
  }
}

/** A string attribute, or the value of a literal expression attribute (`vars={{ … }}`). */
export function attribute(node: MdNode, name: string): unknown {
  const attr = node.attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name === name);
  if (!attr || typeof attr.value === 'string' || attr.value == null) return attr?.value ?? undefined;
  const source = (attr.value as { value?: unknown }).value;
  return typeof source === 'string' ? literalSource(source) : undefined;
}

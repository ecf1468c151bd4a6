// A prop may hold markup written in the page (`label={<>New <b>API</b></>}`), which MDX hands over
// as a JSX node; the content check passed it (check-content.ts). Astro renders such nodes in MDX,
// not in a component's template, so the components render them to HTML with Astro's own renderer.
// Titles and icons are rendered by these functions rather than by nested components: a page of
// cards, steps and tabs has dozens of them, and each component instance costs render time. This
// module imports no Astro renderer (markup-render.ts renders parts in .astro components), so the
// browser bundle of React code that uses built-in components (react-components.ts) stays small.
import { markHTMLString } from 'astro/runtime/server/escape.js';
import { escapeHtml } from './html-parts.ts';
import { iconHtml } from './icons.ts';

/**
 * What a component's markup is made of, in order: HTML it wrote (`html()`), a JSX node from a prop
 * (rendered where it stands) and, in html-components.ts, the component's children. Rendering the parts
 * needs the page being rendered only for the nodes.
 */
export type MarkupPart = ReturnType<typeof html> | { node: unknown } | typeof CHILDREN;
/** Where a component's children go among its parts (html-components.ts puts them there). */
export const CHILDREN = Symbol('children');

/** HTML the component wrote (from its own strings and escaped values), kept as it is. */
export const html = (s: string) => markHTMLString(s) as unknown as { readonly html: true };

/**
 * Parts that are all HTML (no prop markup, no children) as one string: what an .astro component that
 * gathers its own input (Tabs, CodeGroup, Latex, Mermaid) puts on the page.
 */
export function plainHtml(parts: MarkupPart[]): string {
  return parts.map((part) => {
    if (typeof part === 'symbol' || (typeof part === 'object' && part !== null && 'node' in part)) throw new Error('plainHtml: parts with markup or children need a renderer');
    return String(part);
  }).join('');
}

/** A text prop as parts: a string or number as escaped text, markup as that markup. */
export function textParts(value: unknown): MarkupPart[] {
  if (value === undefined || value === null || value === false) return [];
  return [typeof value === 'object' ? { node: value } : html(escapeHtml(String(value)))];
}

export interface IconOptions {
  iconType?: string;
  /** Mintlify's `iconLibrary`: fontawesome or lucide (icons.ts). */
  iconLibrary?: string;
  className?: string;
  color?: string;
  size?: number | string;
}

/**
 * An icon prop as parts: a Font Awesome or Lucide name, an image URL or path, or markup, in a
 * `span.mint-icon-wrap` hidden from assistive technology (icons here are decoration). `page` names
 * the page in the warning for an unknown name.
 */
export function iconParts(icon: unknown, page: string, options: IconOptions = {}): MarkupPart[] {
  if (icon === undefined || icon === null || icon === '' || icon === false) return [];
  const { className, color, size } = options;
  const style = [color ? `color: ${color}` : '', size !== undefined && size !== '' ? `--mint-icon-size: ${Number(size) ? `${Number(size)}px` : size}` : ''].filter(Boolean).join('; ');
  const open = `<span class="${escapeHtml(['mint-icon-wrap', className].filter(Boolean).join(' '))}"${style ? ` style="${escapeHtml(style)}"` : ''} aria-hidden="true">`;
  if (typeof icon === 'string') return [html(`${open}${iconHtml(icon, options.iconType, page, options.iconLibrary)}</span>`)];
  return [html(open), { node: icon }, html('</span>')];
}

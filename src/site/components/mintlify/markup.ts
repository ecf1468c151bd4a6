// A prop may hold markup written in the page (`label={<>New <b>API</b></>}`), which MDX hands over
// as a JSX node; the content check passed it (check-content.ts). Astro renders such nodes in MDX,
// not in a component's template, so the components render them to HTML with Astro's own renderer.
// Titles and icons are rendered by these functions rather than by nested components: a page of
// cards, steps and tabs has dozens of them, and each component instance costs render time.
import { renderJSX } from 'astro/runtime/server/index.js';
import { escapeHtml } from './html-parts.ts';
import { iconHtml } from './icons.ts';

/** The HTML of a JSX node, rendered in the page being built (`result` is the component's `$$result`). */
export async function markupHtml(result: unknown, node: unknown): Promise<string> {
  return String(await renderJSX(result as Parameters<typeof renderJSX>[0], node));
}

/** A text prop as HTML: a string or number as escaped text, markup as that markup. */
export async function textHtml(result: unknown, value: unknown): Promise<string> {
  if (value === undefined || value === null || value === false) return '';
  return typeof value === 'object' ? markupHtml(result, value) : escapeHtml(String(value));
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
 * An icon prop as HTML: a Font Awesome or Lucide name, an image URL or path, or markup, in a
 * `span.mint-icon-wrap` hidden from assistive technology (icons here are decoration). `page` names
 * the page in the warning for an unknown name.
 */
export async function iconWrapHtml(result: unknown, icon: unknown, page: string, options: IconOptions = {}): Promise<string> {
  if (icon === undefined || icon === null || icon === '' || icon === false) return '';
  const inner = typeof icon === 'string' ? iconHtml(icon, options.iconType, page, options.iconLibrary) : await markupHtml(result, icon);
  const { className, color, size } = options;
  const style = [color ? `color: ${color}` : '', size !== undefined && size !== '' ? `--mint-icon-size: ${Number(size) ? `${Number(size)}px` : size}` : ''].filter(Boolean).join('; ');
  return `<span class="${escapeHtml(['mint-icon-wrap', className].filter(Boolean).join(' '))}"${style ? ` style="${escapeHtml(style)}"` : ''} aria-hidden="true">${inner}</span>`;
}

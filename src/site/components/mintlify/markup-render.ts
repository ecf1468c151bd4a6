// The parts of markup.ts rendered to HTML inside an .astro component, with Astro's own JSX renderer
// (a prop's markup is a JSX node of the page being built).
import { renderJSX } from 'astro/runtime/server/index.js';
import { iconParts, textParts, type IconOptions, type MarkupPart } from './markup.ts';

/** The HTML of a JSX node, rendered in the page being built (`result` is the component's `$$result`). */
export async function markupHtml(result: unknown, node: unknown): Promise<string> {
  return String(await renderJSX(result as Parameters<typeof renderJSX>[0], node));
}

/** Parts as one HTML string (no children among them), rendered in the page being built. */
async function partsHtml(result: unknown, parts: MarkupPart[]): Promise<string> {
  let out = '';
  for (const part of parts) out += typeof part === 'object' && part !== null && 'node' in part ? await markupHtml(result, part.node) : String(part as unknown);
  return out;
}

/** A text prop as HTML: a string or number as escaped text, markup as that markup. */
export async function textHtml(result: unknown, value: unknown): Promise<string> {
  return partsHtml(result, textParts(value));
}

/** An icon prop as HTML (iconParts, rendered in the page being built). */
export async function iconWrapHtml(result: unknown, icon: unknown, page: string, options: IconOptions = {}): Promise<string> {
  return partsHtml(result, iconParts(icon, page, options));
}

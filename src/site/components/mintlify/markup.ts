// A prop may hold markup written in the page (`label={<>New <b>API</b></>}`), which MDX hands over
// as a JSX node; the content check passed it (check-content.ts). Astro renders such nodes in MDX,
// not in a component's template, so the components render them to HTML with Astro's own renderer.
import { renderJSX } from 'astro/runtime/server/index.js';

/** The HTML of a JSX node, rendered in the page being built (`result` is the component's `$$result`). */
export async function markupHtml(result: unknown, node: unknown): Promise<string> {
  return String(await renderJSX(result as Parameters<typeof renderJSX>[0], node));
}

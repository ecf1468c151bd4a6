// The markup of a tab set, shared by <Tabs>, <CodeGroup> and the request/response examples on every
// path (their markup functions in component-markup.ts): a WAI-ARIA tab list
// (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/) or, for a dropdown code group, a labelled
// <select>; one panel shown. tabs.ts switches panels in the browser.
import { escapeHtml, tagEnd, uniqueId } from './html-parts.ts';
import { html, type MarkupPart } from './markup.ts';

export interface TabItem {
  /** The tab's label: parts of HTML (already escaped) and, from React code, markup of a prop. */
  label: MarkupPart[];
  /** The label as plain text (a dropdown's option, a region's name). */
  text: string;
  /** The panel: its first part is HTML opening the panel's element, which gets its id, labelling and `hidden` here. */
  panel: MarkupPart[];
}

/** The panel's parts with `attributes` (already escaped) added to the opening tag its first part starts with. */
function withPanelAttributes(panel: MarkupPart[], attributes: string): MarkupPart[] {
  const [first, ...rest] = panel;
  const open = String(first);
  // Quotes respected: a title may hold `>` (Astro writes it as is in an attribute).
  let end = tagEnd(open, 0) - 1;
  if (open[end - 1] === '/') end--;
  return [html(`${open.slice(0, end)} ${attributes}${open.slice(end)}`), ...rest];
}

export function tabSetParts(items: TabItem[], options: { selected?: number; dropdown?: boolean; label?: string } = {}): MarkupPart[] {
  const selected = Math.min(Math.max(0, options.selected ?? 0), Math.max(0, items.length - 1));
  const group = uniqueId('mint-tabs');
  const panel = (item: TabItem, i: number, labelling: string) =>
    withPanelAttributes(item.panel, `id="${group}-${i}" ${labelling} data-mint-panel${i === selected ? '' : ' hidden'}`);
  if (options.dropdown) {
    const select = `<select class="mint-tab-select" aria-label="${escapeHtml(options.label ?? 'Choose an example')}" aria-controls="${items.map((_, i) => `${group}-${i}`).join(' ')}">${items
      .map((item, i) => `<option value="${i}"${i === selected ? ' selected' : ''}>${escapeHtml(item.text)}</option>`)
      .join('')}</select>`;
    return [html(`<div class="mint-tab-bar">${select}</div>`), ...items.flatMap((item, i) => panel(item, i, `role="region" aria-label="${escapeHtml(item.text)}"`))];
  }
  return [
    html(`<div class="mint-tab-bar"><div class="mint-tablist" role="tablist"${options.label ? ` aria-label="${escapeHtml(options.label)}"` : ''}>`),
    ...items.flatMap((item, i) => [
      html(`<button type="button" role="tab" class="mint-tab" id="${group}-${i}-tab" aria-controls="${group}-${i}" aria-selected="${i === selected}" tabindex="${i === selected ? 0 : -1}">`),
      ...item.label,
      html('</button>'),
    ]),
    html('</div></div>'),
    ...items.flatMap((item, i) => panel(item, i, `role="tabpanel" aria-labelledby="${group}-${i}-tab" tabindex="0"`)),
  ];
}

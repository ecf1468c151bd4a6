// The markup of a tab set, shared by <Tabs>, <CodeGroup> and the request/response examples: a
// WAI-ARIA tab list (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/) or, for a dropdown code
// group, a labelled <select>; one panel shown. tabs.ts switches panels in the browser.
import { escapeHtml, htmlText, type HtmlElementPart, uniqueId, withAttributes } from './html-parts.ts';

export interface TabItem {
  /** The tab's label as HTML (already escaped). */
  labelHtml: string;
  /** The panel element; it gets its id, labelling and `hidden` here. */
  panel: HtmlElementPart;
}

export function tabSetHtml(items: TabItem[], options: { selected?: number; dropdown?: boolean; label?: string } = {}): string {
  const selected = Math.min(Math.max(0, options.selected ?? 0), Math.max(0, items.length - 1));
  const group = uniqueId('mint-tabs');
  const panel = (item: TabItem, i: number, labelling: string) =>
    withAttributes(item.panel, `id="${group}-${i}" ${labelling} data-mint-panel${i === selected ? '' : ' hidden'}`);
  if (options.dropdown) {
    const select = `<select class="mint-tab-select" aria-label="${escapeHtml(options.label ?? 'Choose an example')}" aria-controls="${items.map((_, i) => `${group}-${i}`).join(' ')}">${items
      .map((item, i) => `<option value="${i}"${i === selected ? ' selected' : ''}>${escapeHtml(htmlText(item.labelHtml))}</option>`)
      .join('')}</select>`;
    return `<div class="mint-tab-bar">${select}</div>${items.map((item, i) => panel(item, i, `role="region" aria-label="${escapeHtml(htmlText(item.labelHtml))}"`)).join('')}`;
  }
  const tabs = items
    .map((item, i) => `<button type="button" role="tab" class="mint-tab" id="${group}-${i}-tab" aria-controls="${group}-${i}" aria-selected="${i === selected}" tabindex="${i === selected ? 0 : -1}">${item.labelHtml}</button>`)
    .join('');
  return `<div class="mint-tab-bar"><div class="mint-tablist" role="tablist"${options.label ? ` aria-label="${escapeHtml(options.label)}"` : ''}>${tabs}</div></div>${items
    .map((item, i) => panel(item, i, `role="tabpanel" aria-labelledby="${group}-${i}-tab" tabindex="0"`))
    .join('')}`;
}

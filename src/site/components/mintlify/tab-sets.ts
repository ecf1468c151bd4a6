// Tab sets in the browser (Tabs, CodeGroup): a click or the arrow, Home and End keys select a tab
// and show its panel (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/); a dropdown code group
// shows the panel its <select> names. As on Mintlify, the other sets of the page that have a tab
// of the same title follow the choice (not those with sync={false}). Prompt's copy button.
//
// Both the page's script (tabs.ts) and React code (react-components.ts, after hydration) call
// enhanceTabSets; they are separate bundles, so an element is marked as bound with a symbol of the
// global registry, which both see, and is bound once.
const BOUND = Symbol.for('folio.mint-tabs-bound');
type Bindable = HTMLElement & { [BOUND]?: true };

/** True the first time `el` is seen (and marks it). */
function firstTime(el: Bindable): boolean {
  if (el[BOUND]) return false;
  el[BOUND] = true;
  return true;
}

/** The elements of `set` matching `selector`, not those of a set nested inside it. */
function own(set: HTMLElement, selector: string): HTMLElement[] {
  return [...set.querySelectorAll<HTMLElement>(selector)].filter((el) => el.closest('[data-mint-tabs]') === set);
}

function show(set: HTMLElement, index: number, focus: boolean) {
  const tabs = own(set, '.mint-tab-bar [role="tab"]');
  // A code block may since have been wrapped (with its copy button): the panel stays the block.
  const panels = own(set, '[data-mint-panel]');
  tabs.forEach((tab, i) => {
    tab.setAttribute('aria-selected', String(i === index));
    tab.tabIndex = i === index ? 0 : -1;
  });
  panels.forEach((panel, i) => (panel.hidden = i !== index));
  if (focus) tabs[index]?.focus();
}

const synced = (set: HTMLElement) => set.dataset.mintSync !== 'false';

/** A reader's choice: shows tab `index` of `set`, and the tab of the same title in every other synced set. */
function choose(set: HTMLElement, index: number, focus: boolean) {
  show(set, index, focus);
  if (!synced(set)) return;
  const title = own(set, '.mint-tab-bar [role="tab"]')[index]?.textContent ?? own(set, '.mint-tab-bar option')[index]?.textContent;
  for (const other of set.ownerDocument.querySelectorAll<HTMLElement>('[data-mint-tabs]')) {
    if (other === set || !synced(other)) continue;
    const titles = [...own(other, '.mint-tab-bar [role="tab"]'), ...own(other, '.mint-tab-bar option')].map((t) => t.textContent);
    const match = titles.indexOf(title ?? null);
    if (match < 0) continue;
    show(other, match, false);
    const select = own(other, '.mint-tab-bar select')[0] as HTMLSelectElement | undefined;
    if (select) select.value = String(match);
  }
}

/** Binds every tab set and prompt copy button of `root` not bound yet. */
export function enhanceTabSets(root: ParentNode) {
  for (const set of root.querySelectorAll<HTMLElement>('[data-mint-tabs]')) {
    if (!firstTime(set)) continue;
    const tabs = own(set, '.mint-tab-bar [role="tab"]');
    tabs.forEach((tab, i) => {
      tab.addEventListener('click', () => choose(set, i, false));
      tab.addEventListener('keydown', (event) => {
        const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
        if (next === undefined) return;
        event.preventDefault();
        choose(set, (next + tabs.length) % tabs.length, true);
      });
    });
    const select = own(set, '.mint-tab-bar select')[0] as HTMLSelectElement | undefined;
    select?.addEventListener('change', () => choose(set, Number(select.value), false));
  }

  // Prompt: copies the prompt's text.
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-mint-copy]')) {
    if (!firstTime(button)) continue;
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.mintCopy ?? '');
      if (!source) return;
      await navigator.clipboard.writeText(source.innerText.trim());
      const label = button.textContent;
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = label), 1500);
    });
  }
}

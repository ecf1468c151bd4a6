// The search dialog: ⌘K / Ctrl-K (or "/") opens it; results come from Pagefind's JS API (the index
// each build writes under /pagefind/, loaded on first use), grouped by page with the headings that
// match. The input keeps focus; arrow keys move the active result (aria-activedescendant), Enter
// opens it, Escape closes the dialog (a modal <dialog>: the rest of the page is inert meanwhile).

interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
}
interface PagefindData {
  url: string;
  meta: { title?: string };
  excerpt: string;
  sub_results?: PagefindSubResult[];
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  mergeIndex(url: string, options?: Record<string, unknown>): Promise<void>;
  debouncedSearch(query: string, options?: { filters?: Record<string, string> }, ms?: number): Promise<{ results: { data(): Promise<PagefindData> }[] } | null>;
}

const MAX_PAGES = 8;
const MAX_HEADINGS = 3;

const dialog = document.querySelector<HTMLDialogElement>('.search-dialog');
const input = dialog?.querySelector<HTMLInputElement>('.search-input');
const list = dialog?.querySelector<HTMLElement>('.search-results');
const status = dialog?.querySelector<HTMLElement>('.search-status');
const opener = document.querySelector<HTMLButtonElement>('.search-button');

let pagefind: Promise<Pagefind> | undefined;
let active = -1;
let latest = 0;

const SEARCH_OPTIONS = { excerptLength: 18 };

/**
 * The site's index is in shards (docs/decisions.md, "Search index in shards"): shard 0 at
 * /pagefind/, the others in the folders /pagefind/shards.json lists, merged into one search.
 * A build without the list (older builds) has one index.
 */
function loadPagefind(): Promise<Pagefind> {
  const url = '/pagefind/pagefind.js';
  // The list is fetched while Pagefind loads, and the shards are merged all at once: each merge
  // is a few round trips (its entry, then its metadata), which one after the other made a first
  // search wait about 4 round trips per shard. Pagefind keeps its merged indexes in the order the
  // merges are asked for, so the results are the same (docs/decisions.md, "The search shard of a
  // fast redeploy").
  if (pagefind) return pagefind;
  const listing = fetch('/pagefind/shards.json').then((r) => (r.ok ? r.json() : {}), () => ({})) as Promise<{ indexes?: unknown }>;
  pagefind = (import(/* @vite-ignore */ url) as Promise<Pagefind>).then(async (p) => {
    await p.options(SEARCH_OPTIONS);
    const listed = await listing;
    const shards = Array.isArray(listed.indexes) ? listed.indexes.filter((dir): dir is string => typeof dir === 'string' && /^[1-9]\d*\/$/.test(dir)) : [];
    await Promise.all(shards.map((dir) => p.mergeIndex(`/pagefind/${dir}`, SEARCH_OPTIONS)));
    return p;
  });
  return pagefind;
}

function options(): HTMLElement[] {
  return list ? [...list.querySelectorAll<HTMLElement>('[role="option"]')] : [];
}

function setActive(index: number) {
  const all = options();
  if (!input || !all.length) return;
  active = (index + all.length) % all.length;
  all.forEach((option, i) => option.setAttribute('aria-selected', String(i === active)));
  const current = all[active]!;
  input.setAttribute('aria-activedescendant', current.id);
  current.scrollIntoView({ block: 'nearest' });
}

function option(id: string, kind: 'search-page' | 'search-heading', href: string, title: string, excerpt: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.id = id;
  a.className = kind;
  a.href = href;
  a.setAttribute('role', 'option');
  a.setAttribute('aria-selected', 'false');
  a.tabIndex = -1;
  const strong = document.createElement('span');
  strong.className = 'search-title';
  strong.textContent = title;
  const small = document.createElement('small');
  small.innerHTML = excerpt; // Pagefind escapes the page text and adds only <mark>
  a.append(strong, small);
  return a;
}

function show(groups: HTMLElement[], message: string) {
  if (!list || !input || !status) return;
  list.replaceChildren(...groups);
  status.textContent = message;
  input.setAttribute('aria-expanded', String(groups.length > 0));
  input.removeAttribute('aria-activedescendant');
  active = -1;
  if (groups.length) setActive(0);
}

async function runSearch() {
  if (!input) return;
  const query = input.value.trim();
  const ticket = ++latest;
  if (!query) return show([], '');
  let groups: HTMLElement[] = [];
  let message: string;
  try {
    // Only the reader's version (the layout's data-version); each language has its own index (<html lang>).
    const version = document.documentElement.dataset.version;
    const search = await (await loadPagefind()).debouncedSearch(query, version ? { filters: { version } } : {}, 120);
    if (!search || ticket !== latest) return; // a newer query superseded this one
    const pages = await Promise.all(search.results.slice(0, MAX_PAGES).map((r) => r.data()));
    let n = 0;
    groups = pages.map((page) => {
      const title = page.meta.title ?? page.url;
      const group = document.createElement('div');
      group.className = 'search-group';
      group.setAttribute('role', 'group');
      group.setAttribute('aria-label', title);
      group.append(option(`search-option-${n++}`, 'search-page', page.url, title, page.excerpt));
      const headings = (page.sub_results ?? []).filter((s) => s.url.includes('#') && s.title !== title).slice(0, MAX_HEADINGS);
      for (const heading of headings) group.append(option(`search-option-${n++}`, 'search-heading', heading.url, heading.title, heading.excerpt));
      return group;
    });
    message = groups.length ? `${groups.length} page${groups.length === 1 ? '' : 's'} found` : `No results for “${query}”`;
  } catch {
    pagefind = undefined;
    message = 'Search is available on built sites';
  }
  if (ticket === latest) show(groups, message);
}

export function openSearch() {
  if (!dialog || !input || dialog.open) return;
  dialog.showModal();
  input.focus();
  input.select();
  void loadPagefind().catch(() => (pagefind = undefined)); // warm up while the reader types
}

if (dialog && input && list) {
  // The shortcut as this platform writes it (a fixed-width <kbd>: changing it shifts nothing).
  const shortcut = document.querySelector('.search-shortcut');
  if (shortcut && /Mac|iPhone|iPad/.test(navigator.platform)) shortcut.textContent = '⌘K';
  opener?.addEventListener('click', openSearch);
  dialog.querySelector('.search-close')?.addEventListener('click', () => dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  list.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) dialog.close();
  });
  list.addEventListener('mousemove', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
    const index = target ? options().indexOf(target) : -1;
    if (index >= 0 && index !== active) setActive(index);
  });
  input.addEventListener('input', () => void runSearch());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(active + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Escape') {
      // A search input's own Escape only clears its text: one press closes the dialog.
      event.preventDefault();
      dialog.close();
    } else if (event.key === 'Enter') {
      const current = options()[active];
      if (!current) return;
      event.preventDefault();
      dialog.close();
      current.click();
    }
  });
  document.addEventListener('keydown', (event) => {
    const typing = event.target instanceof HTMLElement && event.target.closest('input, textarea, select, [contenteditable]');
    if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      if (dialog.open) dialog.close();
      else openSearch();
    } else if (event.key === '/' && !typing && !dialog.open) {
      event.preventDefault();
      openSearch();
    }
  });
}

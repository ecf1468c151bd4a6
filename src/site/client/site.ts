// The whole client script of a docs site: theme switch, copy buttons, phone menu, search.
const root = document.documentElement;

document.querySelector('.theme-toggle')?.addEventListener('click', () => {
  const theme = root.dataset.theme === 'dark' ? 'light' : 'dark';
  root.dataset.theme = theme;
  try {
    localStorage.setItem('folio-theme', theme);
  } catch {
    // private mode: the choice lasts for this page only
  }
});

// Code blocks of pages have their own title bar and buttons (code-blocks.ts); this is for the rest
// (the generated API pages' curl command).
for (const pre of document.querySelectorAll<HTMLElement>('article pre:not(.code-block pre, .mermaid)')) {
  const wrap = document.createElement('div');
  wrap.className = 'code-wrap';
  pre.replaceWith(wrap);
  wrap.append(pre);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy-button';
  button.textContent = 'Copy';
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(pre.innerText.replace(/\n$/, ''));
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  wrap.append(button);
}

for (const heading of document.querySelectorAll<HTMLElement>('article :is(h2, h3, h4)[id]')) {
  const anchor = document.createElement('a');
  anchor.className = 'heading-anchor';
  anchor.href = `#${heading.id}`;
  anchor.setAttribute('aria-label', 'Link to this section');
  anchor.textContent = '#';
  heading.append(anchor);
}

const menu = document.querySelector<HTMLButtonElement>('.menu-button');
menu?.addEventListener('click', () => {
  const open = document.getElementById('sidebar')?.classList.toggle('open') ?? false;
  menu.setAttribute('aria-expanded', String(open));
});

interface PagefindResult {
  data(): Promise<{ url: string; meta: { title?: string }; excerpt: string }>;
}
interface Pagefind {
  search(query: string): Promise<{ results: PagefindResult[] }>;
}
let pagefind: Promise<Pagefind> | undefined;
const input = document.querySelector<HTMLInputElement>('.search input');
const list = document.querySelector<HTMLUListElement>('.search-results');
let latest = 0;
input?.addEventListener('input', async () => {
  if (!list) return;
  const query = input.value.trim();
  const ticket = ++latest;
  if (!query) {
    list.replaceChildren();
    return;
  }
  const url = '/pagefind/pagefind.js';
  pagefind ??= import(/* @vite-ignore */ url);
  let items: HTMLLIElement[];
  try {
    const { results } = await (await pagefind).search(query);
    const data = await Promise.all(results.slice(0, 8).map((r) => r.data()));
    items = data.map((d) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = d.url;
      a.textContent = d.meta.title ?? d.url;
      const small = document.createElement('small');
      small.innerHTML = d.excerpt; // Pagefind escapes the page text and adds only <mark>
      a.append(small);
      li.append(a);
      return li;
    });
    if (!items.length) items = [message('No results')];
  } catch {
    pagefind = undefined;
    items = [message('Search is available on built sites')];
  }
  if (ticket === latest) list.replaceChildren(...items);
});

// "/" focuses the search box; Escape or a click elsewhere closes the results.
document.addEventListener('keydown', (event) => {
  const typing = event.target instanceof HTMLElement && event.target.closest('input, textarea, [contenteditable]');
  if (event.key === '/' && !typing) {
    event.preventDefault();
    input?.focus();
  } else if (event.key === 'Escape' && list) {
    list.replaceChildren();
    input?.blur();
  }
});
document.addEventListener('click', (event) => {
  if (list && event.target instanceof Node && !list.parentElement?.contains(event.target)) list.replaceChildren();
});

function message(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

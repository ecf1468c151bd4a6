// The whole client script of a docs site: theme switch, copy buttons, heading anchors, and (in their
// own modules) the phone drawer, the search dialog, the table of contents and the page menu.
import './drawer.ts';
import './page-menu.ts';
import './search.ts';
import './toc.ts';

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

// A table wider than the page scrolls inside itself; keyboard readers reach its overflow by focusing
// it. Measured when the browser lays the table out anyway (a ResizeObserver), never by forcing a
// layout while the page loads.
const tables = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const table = target as HTMLTableElement;
    if (table.scrollWidth > table.clientWidth) table.tabIndex = 0;
    else table.removeAttribute('tabindex');
  }
});
for (const table of document.querySelectorAll<HTMLTableElement>('article table')) tables.observe(table);

// docs.json `banner` with `dismissible`: closed for good, per banner text (parts/Banner.astro).
const banner = document.querySelector<HTMLElement>('.site-banner[data-banner-id]');
if (banner) {
  const key = `folio-banner-${banner.dataset.bannerId}`;
  try {
    if (localStorage.getItem(key)) banner.hidden = true;
  } catch {
    // storage blocked: the banner shows
  }
  banner.querySelector('.banner-dismiss')?.addEventListener('click', () => {
    banner.hidden = true;
    try {
      localStorage.setItem(key, '1');
    } catch {
      // storage blocked: closed for this page only
    }
  });
}

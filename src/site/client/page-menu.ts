// The copy buttons of the page menu (layouts/parts/PageMenu.astro): "Copy page" puts the page's
// .md file on the clipboard, "Copy MCP server URL" the address. The clipboard gets a promise of
// the text, so the copy still counts as the click's even though the file is fetched first (Safari
// refuses a write that comes after an await). Escape closes the open pageMenu.
const pageMenu = document.querySelector<HTMLElement>('.page-menu');
if (pageMenu) {
  const status = pageMenu.querySelector<HTMLElement>('[role=status]')!;
  const more = pageMenu.querySelector('details');
  for (const button of pageMenu.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const url = new URL(button.dataset.copy!, location.href).href;
      const text =
        'fetch' in button.dataset
          ? fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
          : Promise.resolve(url);
      try {
        await navigator.clipboard.write([new ClipboardItem({ 'text/plain': text.then((t) => new Blob([t], { type: 'text/plain' })) })]);
        status.textContent = 'Copied';
      } catch {
        status.textContent = 'Could not copy';
      }
      const title = button.querySelector('.page-menu-title')!;
      const was = title.textContent;
      title.textContent = status.textContent;
      setTimeout(() => {
        title.textContent = was;
        status.textContent = '';
      }, 1500);
    });
  }
  pageMenu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && more?.open) {
      more.open = false;
      more.querySelector('summary')?.focus();
    }
  });
}

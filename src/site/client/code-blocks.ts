// The buttons in each code block's title bar (src/site/markdown/code-blocks.ts): Copy puts the
// block's code on the clipboard; Expand unfolds a block marked `expandable`.
for (const block of document.querySelectorAll<HTMLElement>('.code-block')) {
  const code = block.querySelector('pre');
  const copy = block.querySelector<HTMLButtonElement>('.code-block-copy');
  copy?.addEventListener('click', async () => {
    // Lines a diff marks as removed are not part of the code to copy.
    const lines = [...(code?.querySelectorAll<HTMLElement>('.line') ?? [])].filter((line) => !line.classList.contains('remove'));
    const text = lines.length ? lines.map((line) => line.textContent ?? '').join('\n') : (code?.textContent ?? '');
    await navigator.clipboard.writeText(text.replace(/\n$/, ''));
    copy.textContent = 'Copied';
    setTimeout(() => (copy.textContent = 'Copy'), 1500);
  });
  const expand = block.querySelector<HTMLButtonElement>('.code-block-expand');
  expand?.addEventListener('click', () => {
    const open = block.classList.toggle('expanded');
    expand.setAttribute('aria-expanded', String(open));
    expand.textContent = open ? 'Collapse' : 'Expand';
  });
}

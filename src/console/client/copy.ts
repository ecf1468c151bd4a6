// Enhancement only: a Copy button beside a secret shown once. Without script the button stays
// hidden and the value can be selected by hand.
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy!);
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent ?? '');
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the text';
    }
  });
}
export {};

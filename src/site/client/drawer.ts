// The sidebar: on load it scrolls (itself, never the page) to keep the current page in view. On
// phones it is a drawer over the content: the menu button opens it; while open the rest of the page
// is inert, Tab and Shift-Tab cycle through the drawer and its button, and Escape, the backdrop or
// the button close it, returning focus to the button.

const sidebar = document.getElementById('sidebar');
const menu = document.querySelector<HTMLButtonElement>('.menu-button');
const backdrop = document.querySelector<HTMLElement>('.sidebar-backdrop');
const phone = matchMedia('(max-width: 48rem)');

function keepCurrentInView() {
  const current = sidebar?.querySelector<HTMLElement>('a[aria-current="page"]');
  if (!sidebar || !current) return;
  const top = current.offsetTop;
  if (top < sidebar.scrollTop || top + current.offsetHeight > sidebar.scrollTop + sidebar.clientHeight) {
    sidebar.scrollTop = top - sidebar.clientHeight / 3;
  }
}

/** What must not take focus or clicks while the drawer is open. */
function outside(): HTMLElement[] {
  const header = [...document.querySelectorAll<HTMLElement>('.site-header > *, .header-bar > *')].filter((el) => !el.contains(menu) && !el.contains(sidebar));
  return [...document.querySelectorAll<HTMLElement>('.content, .toc, .site-footer, .skip-link'), ...header];
}

function focusables(): HTMLElement[] {
  const inDrawer = sidebar ? [...sidebar.querySelectorAll<HTMLElement>('a[href], button, summary, select, input, [tabindex]:not([tabindex="-1"])')] : [];
  return [menu!, ...inDrawer.filter((el) => el.offsetParent !== null || el === document.activeElement)];
}

function onKey(event: KeyboardEvent) {
  if (event.key === 'Escape') {
    event.preventDefault();
    setOpen(false);
    menu?.focus();
  } else if (event.key === 'Tab') {
    const all = focusables();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const next = event.shiftKey ? (index <= 0 ? all.length - 1 : index - 1) : index === all.length - 1 || index < 0 ? 0 : index + 1;
    event.preventDefault();
    all[next]?.focus();
  }
}

function setOpen(open: boolean) {
  if (!sidebar || !menu) return;
  sidebar.classList.toggle('open', open);
  backdrop?.classList.toggle('open', open);
  menu.setAttribute('aria-expanded', String(open));
  menu.setAttribute('aria-label', open ? 'Close the navigation' : 'Open the navigation');
  for (const el of outside()) el.inert = open;
  if (open) {
    document.addEventListener('keydown', onKey);
    keepCurrentInView();
    (sidebar.querySelector<HTMLElement>('a[aria-current="page"]') ?? focusables()[1])?.focus({ preventScroll: true });
  } else {
    document.removeEventListener('keydown', onKey);
  }
}

menu?.addEventListener('click', () => setOpen(!sidebar?.classList.contains('open')));
backdrop?.addEventListener('click', () => setOpen(false));
// Turning a phone to a wide screen (or resizing) leaves no drawer state behind.
phone.addEventListener('change', () => setOpen(false));
// On phones the drawer is closed: it scrolls when it opens (setOpen), so loading forces no layout.
if (!phone.matches) keepCurrentInView();

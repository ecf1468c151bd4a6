// Sets the colour theme before the page is painted (a classic script in <head>, so it blocks
// rendering for the few lines it takes): the reader's saved choice, else the system's.
(function () {
  var theme = null;
  try {
    theme = localStorage.getItem('folio-theme');
  } catch {
    // storage blocked: follow the system
  }
  // docs.json `appearance`: the mode before a choice (`default`), and no choice at all (`strict`).
  var root = document.documentElement;
  var preset = root.dataset.appearance;
  if (root.hasAttribute('data-appearance-strict') || (theme !== 'light' && theme !== 'dark')) theme = null;
  if (!theme && (preset === 'light' || preset === 'dark')) theme = preset;
  if (!theme) theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;
})();

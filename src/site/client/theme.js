// Sets the colour theme before the page is painted (a classic script in <head>, so it blocks
// rendering for the few lines it takes): the reader's saved choice, else the system's.
(function () {
  var theme = null;
  try {
    theme = localStorage.getItem('folio-theme');
  } catch {
    // storage blocked: follow the system
  }
  if (theme !== 'light' && theme !== 'dark') theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;
})();

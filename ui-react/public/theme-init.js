// Applies the stored theme before the first paint (0 system, 1 dark, 2 light; default light).
// A file, not an inline script, so a strict Content-Security-Policy (script-src 'self') allows it.
(function () {
  var v = null;
  try { v = localStorage.getItem('tessera.colorTheme'); } catch { /* storage disabled */ }
  var dark = v === '1' || (v === '0' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
})();

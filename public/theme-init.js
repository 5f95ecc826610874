// Apply the saved colour mode (next-themes' "theme" key) before the app loads: no light flash.
// Loaded by index.html as a file of its own, so the CSP needs no 'unsafe-inline' for scripts.
(function () {
  try {
    var t = localStorage.getItem('theme');
    var dark = t === 'dark' || ((!t || t === 'system') && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.add(dark ? 'dark' : 'light');
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  } catch (e) {}
})();

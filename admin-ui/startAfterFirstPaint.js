// Inlined into the built index.html in place of the entry's <script type="module"> (see
// vite.config.ts): the app's code is requested only once the splash has been painted (the
// browser's first-contentful-paint entry), so none of it competes with that first paint. A tab
// that never paints (opened in the background) starts anyway after a short while.
(() => {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = '__ENTRY__';
    document.head.appendChild(script);
  };
  try {
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {}
  setTimeout(start, 250);
})();

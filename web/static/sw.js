// Keeps the page working offline: every file of the page is cached when it first loads.
// Requests go to the network first (so a rebuilt page is never mixed with a cached one) and
// fall back to the cache when there is no network.
const CACHE = 'tensh-page-v1';
const FILES = ['./', 'index.html', 'style.css', 'app.js', 'worker.js', 'call.js', 'tensh_web.js', 'tensh_web_bg.wasm'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      fetch(event.request)
        .then((response) => {
          if (response.ok) cache.put(event.request, response.clone());
          return response;
        })
        .catch(() => cache.match(event.request, { ignoreSearch: true })
          .then((cached) => cached || Response.error()))),
  );
});

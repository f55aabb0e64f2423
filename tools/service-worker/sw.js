// @ts-check
/**
 * The app's service worker, built by plugin.ts, which fills in the list of files and the version.
 * @typedef {Event & { waitUntil(promise: Promise<unknown>): void }} ExtendableEvent
 * @typedef {ExtendableEvent & { request: Request, respondWith(response: Promise<Response>): void }} FetchEvent
 * @typedef {ExtendableEvent & { data: unknown }} MessageEventLike
 * @typedef {{
 *   registration: { scope: string },
 *   clients: { claim(): Promise<void> },
 *   skipWaiting(): Promise<void>,
 *   addEventListener(type: string, listener: (event: any) => void): void,
 * }} WorkerScope
 */

/** @type {string[]} */
const precache = JSON.parse('__PRECACHE__');
const version = '__VERSION__';
const worker = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

const cacheName = `ai-chat-${version}`;
const scope = new URL(worker.registration.scope);
const shell = new URL('index.html', scope).href;
const precached = new Set(precache.map((path) => new URL(path, scope).href));

// Everything the app is made of, fetched once per version. A new version waits (the page shows
// 'A new version is available') until the user reloads, so two versions never mix in one page.
worker.addEventListener('install', (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil(caches.open(cacheName).then((cache) => cache.addAll([...precached])));
});

worker.addEventListener('activate', (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith('ai-chat-') && name !== cacheName) await caches.delete(name);
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('message', (/** @type {MessageEventLike} */ event) => {
  const data = /** @type {{ type?: unknown } | null} */ (event.data);
  if (data?.type === 'skip-waiting') void worker.skipWaiting();
});

// Only this origin's own files are answered, from the cache: the app's pages open offline.
// Requests to providers (another origin) and anything not precached go to the network untouched
// and are never stored: no reply and nothing that holds a key ever enters the cache.
worker.addEventListener('fetch', (/** @type {FetchEvent} */ event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin) return;
  url.search = '';
  url.hash = '';
  const known = precached.has(url.href);
  // A page of the app (/, a conversation's address, the not-found page) is the app shell.
  const page = request.mode === 'navigate' && !known;
  if (!known && !page) return;
  event.respondWith(
    (async () => {
      const cached = await caches.match(page ? shell : url.href, { cacheName });
      return cached ?? fetch(request);
    })(),
  );
});

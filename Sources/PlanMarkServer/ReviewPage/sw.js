// The review page's service worker: it keeps the page's files, Leaflet, the drawings' JSON and the tiles already
// viewed, so that the page opens and shows the sheet without a network (offline-caches.js says what is kept and how
// each request is answered). It makes no write: writes wait in the page's outbox (outbox.js) until the network is back.
// Served at /app/sw.js with `Service-Worker-Allowed: /`, registered with scope / (the page) by offline.js.
import { CACHES, cacheRule, keptAddress } from './offline-caches.js';

/** The kept copy of `request` in cache `name`, or undefined. */
function kept(request, name) {
  return caches.open(name).then((cache) => cache.match(request, { ignoreVary: true }));
}

/** Where `request`'s answer is kept in cache `name`: the service's JSON per token (`keptAddress`), the rest by URL. */
function addressOf(request, name) {
  return name === CACHES.data ? keptAddress(request.url, request.headers.get('Authorization')) : Promise.resolve(request.url);
}

/** Keeps a full answer (200) of `request`; partial, redirected or other answers are not kept, nor any when the device is full. */
async function keep(request, response, name) {
  if (response.status !== 200 || response.type !== 'basic') return;
  try {
    await (await caches.open(name)).put(await addressOf(request, name), response);
  } catch (error) {
    // No room (QuotaExceededError): the answer is given all the same, just not kept.
  }
}

/**
 * The network's answer (kept for later when it is a full one; kept before it is given, so what the page has seen is
 * what a reload without a network finds); the kept copy when there is no network.
 */
async function networkFirst(event, name) {
  try {
    const response = await fetch(event.request);
    await keep(event.request, response.clone(), name);
    return response;
  } catch (error) {
    const copy = await kept(await addressOf(event.request, name), name);
    if (copy) return copy;
    throw error;
  }
}

/**
 * The kept copy; else the network's answer, kept unless it says `no-cache` (a PDF drawing's tile drawn before its
 * pyramid is made: the pyramid's will take its place, so it must not be kept for good).
 */
async function cacheFirst(event, name) {
  const copy = await kept(event.request.url, name);
  if (copy) return copy;
  const response = await fetch(event.request);
  if (!(response.headers.get('Cache-Control') ?? '').includes('no-cache')) await keep(event.request, response.clone(), name);
  return response;
}

self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));

self.addEventListener('activate', (event) => event.waitUntil((async () => {
  // Caches of older rules go; the worker then answers the open pages at once.
  const current = new Set(Object.values(CACHES));
  for (const name of await caches.keys()) if (name.startsWith('planmark-') && !current.has(name)) await caches.delete(name);
  await self.clients.claim();
})()));

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return;
  const rule = cacheRule(event.request.method, url.pathname, url.search);
  if (!rule) return;
  event.respondWith(rule.strategy === 'cache-first' ? cacheFirst(event, rule.cache) : networkFirst(event, rule.cache));
});

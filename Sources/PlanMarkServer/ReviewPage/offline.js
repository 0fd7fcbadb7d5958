// The page as an installable web app that works without a network: the service worker (sw.js) is registered for
// the whole site, the page's own files are kept at once (the worker answers the page only from its next load), and
// "Keep this sheet offline" keeps every tile of the open drawing, saying first how much it will take.
// `document.body.dataset.offline` is "ready" once the page's files are kept (for scripts and the browser test).
import { fetchImage, request } from './api.js';
import { byId } from './dom.js';
import { failure, say } from './messages.js';
import { CACHES, cacheRule, sizeText, tileAddresses } from './offline-caches.js';

/** How many tiles are fetched at a time when a sheet is kept. */
const AT_ONCE = 4;
/** How many kept tiles the size estimate reads at most. */
const SAMPLE = 64;

/** The same-origin addresses this page loaded (path and query) that the worker keeps in cache `name`. */
function loaded(name) {
  const addresses = new Set();
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name);
    if (url.origin === location.origin && cacheRule('GET', url.pathname, url.search)?.cache === name) addresses.add(url.pathname + url.search);
  }
  return [...addresses];
}

/**
 * Registers the service worker (where the browser has them, in a secure context: HTTPS or loopback) and keeps the
 * page's files. Nothing happens elsewhere: the page then works online only.
 */
export async function setUpOffline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  try {
    const controlled = Boolean(navigator.serviceWorker.controller);
    await navigator.serviceWorker.register('/app/sw.js', { scope: '/', type: 'module' });
    await navigator.serviceWorker.ready;
    const cache = await caches.open(CACHES.page);
    await cache.addAll(['/', ...loaded(CACHES.page)]);
    if (!controlled) {
      // The worker's first load: what the page read before the worker took it was not kept. Once it has taken the
      // page, read it again through the worker (with the token, as the page reads it), so a reload without a network
      // finds it: who is signed in, the drawings, the open drawing's JSON and markers, the tiles in view.
      if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
      for (const address of loaded(CACHES.data)) await request(address).catch(() => null);
      for (const address of loaded(CACHES.tiles)) await fetchImage(address).catch(() => null);
    }
    document.body.dataset.offline = 'ready';
  } catch (error) {
    // Without the worker the page still works online; say why it will not offline.
    failure('This page will not work offline', error);
  }
}

/** The kept tiles of `addresses`, as a set of addresses. */
async function keptTiles(addresses) {
  const cache = await caches.open(CACHES.tiles);
  const kept = new Set((await cache.keys()).map((key) => new URL(key.url).pathname + new URL(key.url).search));
  return { cache, kept: addresses.filter((address) => kept.has(address)) };
}

/** The mean size of up to SAMPLE kept tiles, null when none is kept. */
async function meanTileSize(cache, kept) {
  const sample = kept.slice(0, SAMPLE);
  if (sample.length === 0) return null;
  let total = 0;
  for (const address of sample) total += (await (await cache.match(address)).blob()).size;
  return total / sample.length;
}

/** What keeping the open drawing offline takes: its tiles, how many are kept, and the size (estimated for the rest). */
async function sheetSize(state) {
  const addresses = tileAddresses(state.drawing);
  const { cache, kept } = await keptTiles(addresses);
  const mean = await meanTileSize(cache, kept);
  return { addresses, kept, mean, estimate: mean === null ? null : mean * addresses.length };
}

/** The words of a sheet's size. */
function sizeWords({ addresses, kept, estimate }) {
  const size = estimate === null ? 'size not known until a first tile is kept' : `about ${sizeText(estimate)}`;
  return `${addresses.length} tiles, ${size}; ${kept.length} kept already.`;
}

/**
 * The "Keep this sheet offline" section: its button says what it will take (tiles and an estimated size, from the
 * tiles kept already), then fetches every tile not kept yet (AT_ONCE at a time; the worker keeps each), showing the
 * progress. Without a service worker the section stays hidden.
 */
export function createKeepOffline(state) {
  const section = byId('offline-section');
  const words = byId('offline-size');
  const keep = byId('keep-offline');
  const progress = byId('offline-progress');
  let busy = false;

  /** Shows the open drawing's size (after it opened, and after its first tiles arrived). */
  async function describe() {
    if (!('caches' in window) || !navigator.serviceWorker?.controller || !state.drawing) { section.hidden = true; return; }
    section.hidden = !state.drawing.tiles;
    if (section.hidden || busy) return;
    words.textContent = sizeWords(await sheetSize(state));
  }

  keep.addEventListener('click', async () => {
    if (busy || !state.drawing) return;
    busy = true;
    keep.disabled = true;
    const generation = state.generation;
    try {
      const { addresses, kept } = await sheetSize(state);
      const have = new Set(kept);
      const missing = addresses.filter((address) => !have.has(address));
      progress.hidden = false;
      progress.max = addresses.length;
      progress.value = kept.length;
      let bytes = 0;
      let next = 0;
      const worker = async () => {
        while (next < missing.length && generation === state.generation) {
          const address = missing[next++];
          bytes += (await fetchImage(address)).size;
          progress.value += 1;
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, worker));
      if (generation !== state.generation) return;
      const done = await sheetSize(state);
      words.textContent = sizeWords(done);
      say(`Drawing "${state.drawing.name}" is kept offline: ${done.kept.length} of ${done.addresses.length} tiles (${sizeText(bytes)} fetched now).`);
      section.dataset.kept = String(done.kept.length);
    } catch (error) {
      failure('The sheet was not kept offline', error);
    } finally {
      busy = false;
      keep.disabled = false;
      progress.hidden = true;
    }
  });

  return { describe };
}

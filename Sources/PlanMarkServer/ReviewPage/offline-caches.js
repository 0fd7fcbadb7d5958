// What the page keeps for use without a network, and how each request is answered (the service worker, sw.js,
// follows these rules; the page uses the same names to keep a sheet offline and to count what it keeps).
// Plain logic: no page, no worker (Tests/ReviewPageTests/offline-caches.test.mjs runs it under node).
//
//   page   the page's own files and Leaflet's          network first, the kept copy when there is no network
//   data   the service's JSON the page reads           network first, the kept copy when there is no network
//   tiles  the sheet's tiles (their address names      the kept copy first: a tile's `?v=` is the SHA-256 of its
//          the drawing's revision: `?v=SHA256`)        drawing's image, so a kept tile never goes stale (a PDF's tile
//                                                      drawn before its pyramid, `no-cache`, is not kept)
// Anything else (writes, the event stream, the change feed, the API's documents) goes to the network as it is.

/** The names of the caches (Cache Storage); a new version of the rules gets new names and the old caches are dropped. */
// planmark-data-2: JSON is kept per token (keptAddress); the copies planmark-data-1 kept for anyone are dropped.
export const CACHES = Object.freeze({ page: 'planmark-page-1', data: 'planmark-data-2', tiles: 'planmark-tiles-1' });

/** The JSON the page reads, by path: the drawings, one drawing and its parts, a marker's parts, who is signed in. */
const DATA_PATHS = [
  /^\/me$/,
  /^\/drawings$/,
  /^\/drawings\/[^/]+$/,
  /^\/drawings\/[^/]+\/(regions|markers|summary|image)$/,
  /^\/drawings\/[^/]+\/markers\/\d+\/(history|comments|attachments)(\/[^/]+)?$/,
];

/** A tile of a drawing's pyramid. */
const TILE_PATH = /^\/drawings\/[^/]+\/tiles\/-?\d+\/\d+\/\d+\.png$/;

/**
 * How a request is answered: `{ cache, strategy }` with `strategy` 'network-first' or 'cache-first', or null for one
 * the worker leaves to the network (not a GET, the worker itself, the event stream, the change feed...).
 * `path` is the URL's path, `search` its query ('' or '?...').
 * - Complexity: O(length of the path).
 */
export function cacheRule(method, path, search = '') {
  if (method !== 'GET') return null;
  if (path === '/app/sw.js') return null;
  // The vocabulary (GET /vocabulary) is part of the page: it opens without a network only with it.
  if (path === '/' || path === '/vocabulary' || path.startsWith('/app/') || path.startsWith('/leaflet/')) {
    return { cache: CACHES.page, strategy: 'network-first' };
  }
  if (TILE_PATH.test(path)) {
    // Without its revision a tile's address may name another image later: asked of the network first.
    const revised = new URLSearchParams(search).has('v');
    return { cache: CACHES.tiles, strategy: revised ? 'cache-first' : 'network-first' };
  }
  if (DATA_PATHS.some((pattern) => pattern.test(path))) return { cache: CACHES.data, strategy: 'network-first' };
  return null;
}

/**
 * Every tile of `drawing`'s pyramid (`GET /drawings/NAME`: its width, height, zoom and `tiles`), as the addresses its
 * `tiles.template` gives, top level first. Tile (z, x, y) covers image pixels [x·256·f, (x+1)·256·f) by [y·256·f,
 * (y+1)·256·f) with f = 2^(zoom − z), for z from `tiles.minZoom` to the pyramid's top, floor(zoom) (docs/tiles.md, the
 * scheme). A PDF drawing's `tiles.maxZoom` is two above it: those levels are drawn from the page one tile at a time,
 * 20 times the pyramid's tiles, so they are kept as they are viewed, not all at once. An empty list for a drawing
 * without tiles.
 * - Complexity: O(number of tiles): about 4/3 of those of the top level.
 */
export function tileAddresses(drawing) {
  const tiles = drawing.tiles;
  if (!tiles) return [];
  const addresses = [];
  const size = tiles.tileSize ?? 256;
  for (let z = Math.min(tiles.maxZoom, Math.floor(drawing.zoom)); z >= tiles.minZoom; z -= 1) {
    const span = size * Math.pow(2, drawing.zoom - z);
    const columns = Math.ceil(drawing.width / span);
    const rows = Math.ceil(drawing.height / span);
    for (let y = 0; y < rows; y += 1) {
      for (let x = 0; x < columns; x += 1) {
        addresses.push(tiles.template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)));
      }
    }
  }
  return addresses;
}

/**
 * The address an answer of the service's JSON (cache `data`) is kept under: `url` with `planmark-as=` and the SHA-256 of
 * the request's Authorization header, or `url` itself for a request without one. So a copy kept for one token is given
 * to no other and to no page without a token: on a shared device, the next person (the token lives in the tab only)
 * never sees the last one's punch items offline. The address is a key only; it never goes to the network.
 * - Complexity: O(length of the URL and the header).
 */
export async function keptAddress(url, authorization) {
  if (!authorization) return url;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(authorization)));
  const address = new URL(url);
  address.searchParams.append('planmark-as', [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join(''));
  return address.href;
}

/** A size in bytes in words: "840 KB", "12.5 MB". */
export function sizeText(bytes) {
  if (bytes < 1000) return `${Math.round(bytes)} bytes`;
  if (bytes < 1e6) return `${Math.round(bytes / 1e3)} KB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

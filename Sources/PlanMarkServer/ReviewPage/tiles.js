// A small Leaflet plugin: a tile layer whose tiles are fetched by a function the caller gives (so the
// request can carry a header an <img src> cannot, such as a Bearer token) and shown from blob: URLs.
//
//   tileLayerPlanmark(urlTemplate, { fetchTile: (url, signal) => Promise<Blob>, ...L.TileLayer options })
//
// It uses Leaflet's public API only: it overrides createTile(coords, done), asks getTileUrl(coords) for a
// tile's address, and listens to the layer's own `tileunload` event. A tile Leaflet drops before its bytes
// arrive has its fetch stopped there; every blob: URL is given back (revoked) once its image has loaded,
// failed, or been dropped.
import { L } from './leaflet-global.js';

/** The default fetchTile: a plain fetch() of the tile's address. */
async function plainFetch(url, signal) {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.blob();
}

/** The layer: L.TileLayer with its tiles fetched by `options.fetchTile`. */
export const TileLayerPlanmark = L.TileLayer.extend({
  options: {
    // (url, signal) -> Promise<Blob>: fetches one tile, stopping when `signal` aborts.
    fetchTile: plainFetch,
  },

  initialize(url, options) {
    L.TileLayer.prototype.initialize.call(this, url, options);
    // tile element -> { controller, url }: what each tile still holds (its fetch, then its blob: URL).
    this.tileLoads = new WeakMap();
    this.on('tileunload', (event) => this.releaseTile(event.tile));
  },

  createTile(coords, done) {
    const tile = document.createElement('img');
    tile.alt = '';
    tile.setAttribute('role', 'presentation');
    const load = { controller: new AbortController(), url: null };
    this.tileLoads.set(tile, load);
    const finish = (error) => {
      this.releaseTile(tile);
      done(error, tile);
    };
    this.options.fetchTile(this.getTileUrl(coords), load.controller.signal).then((blob) => {
      if (load.controller.signal.aborted) return;
      load.url = URL.createObjectURL(blob);
      tile.addEventListener('load', () => finish(null), { once: true });
      tile.addEventListener('error', (event) => finish(event), { once: true });
      tile.src = load.url;
    }, (error) => {
      if (error.name !== 'AbortError') finish(error);
    });
    return tile;
  },

  /** Stops a tile's fetch if it is still under way and revokes its blob: URL if it has one. */
  releaseTile(tile) {
    const load = this.tileLoads.get(tile);
    if (!load) return;
    this.tileLoads.delete(tile);
    load.controller.abort();
    if (load.url) URL.revokeObjectURL(load.url);
  },
});

/** The factory, in Leaflet's style (`L.tileLayer(url, options)`): a TileLayerPlanmark. */
export function tileLayerPlanmark(url, options) {
  return new TileLayerPlanmark(url, options);
}

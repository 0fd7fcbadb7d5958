// The sheet as tiles that work with a token too: a Leaflet TileLayer whose tiles are fetched with the
// Bearer header into blob: URLs (an <img src> cannot carry it).
import { blobURL } from './api.js';

/** The TileLayer subclass (made on demand: Leaflet is a classic script that may be missing). */
export function makeBlobTileLayer() {
  return window.L.TileLayer.extend({
    createTile(coords, done) {
      const tile = document.createElement('img');
      tile.alt = '';
      tile.setAttribute('role', 'presentation');
      const controller = new AbortController();
      tile._planmarkAbort = controller;
      blobURL(this.getTileUrl(coords), controller.signal).then((url) => {
        tile.addEventListener('load', () => { URL.revokeObjectURL(url); this._tileOnLoad(done, tile); }, { once: true });
        tile.addEventListener('error', (e) => { URL.revokeObjectURL(url); this._tileOnError(done, tile, e); }, { once: true });
        tile.src = url;
      }, (error) => { if (error.name !== 'AbortError') done(error, tile); });
      return tile;
    },
    // Tiles scrolled away before they arrive are not fetched to the end.
    _abortLoading() {
      for (const key in this._tiles) {
        const tile = this._tiles[key];
        if (tile.coords.z !== this._tileZoom && tile.el._planmarkAbort) tile.el._planmarkAbort.abort();
      }
      window.L.TileLayer.prototype._abortLoading.call(this);
    },
  });
}

/**
 * The tile layer of a drawing from its JSON's `tiles` (`template`, `minZoom`, `maxZoom`, `tileSize`): pyramid
 * zoom z is map zoom z + offset (0 for `leaflet` drawings, 8 for `flutter` ones, whose CRS scales by
 * 256 * 2^z), so the layer asks for exactly the pyramid's `{z}/{x}/{y}`.
 */
export function drawingTileLayer(tiles, bounds, offset, map) {
  const Layer = makeBlobTileLayer();
  return new Layer(tiles.template, {
    tileSize: tiles.tileSize, minNativeZoom: tiles.minZoom + offset, maxNativeZoom: tiles.maxZoom + offset,
    zoomOffset: -offset, minZoom: map.getMinZoom(), maxZoom: map.getMaxZoom(), bounds, noWrap: true,
    keepBuffer: 1, className: 'sheet-tiles',
  });
}

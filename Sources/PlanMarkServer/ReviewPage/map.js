// The open drawing's map: a Leaflet map on L.CRS.Simple with the sheet (tiles, or one image for a server
// without tiles), and the conversion between image pixels and the map's latLng (coordinates.js).
//
// The map element says where the view is, for scripts and the browser test (nothing global):
//   data-image-pixels-per-css-pixel   image pixels one CSS pixel spans at the map's zoom
//   data-top-left-x, data-top-left-y  the image pixel at the map's top-left corner
// so image pixel (x, y) is at CSS pixel ((x - top-left-x) / that, (y - top-left-y) / that) of the map,
// which Leaflet rounds to whole CSS pixels as its latLngToContainerPoint does.
import { L } from './leaflet-global.js';
import { drawingPath, fetchImage } from './api.js';
import { imagePixelsPerCssPixel, latLngToPixel, pixelToLatLng, tileZooms, zoomRange } from './coordinates.js';
import { tileLayerPlanmark } from './tiles.js';

/** The map latLng of image pixel (x, y). */
export function toLatLng(state, x, y) {
  const { lat, lng } = pixelToLatLng(x, y, state.imageZoom);
  return L.latLng(lat, lng);
}

/** The image pixel `{ x, y }` of a map latLng. */
export function toPixel(state, latLng) { return latLngToPixel(latLng.lat, latLng.lng, state.imageZoom); }

/** Writes the view's data attributes on the map element. */
function describeView(state, map) {
  const corner = toPixel(state, map.containerPointToLatLng(L.point(0, 0)));
  const box = map.getContainer();
  box.dataset.imagePixelsPerCssPixel = String(imagePixelsPerCssPixel(state.imageZoom, map.getZoom()));
  box.dataset.topLeftX = String(corner.x);
  box.dataset.topLeftY = String(corner.y);
}

/**
 * Makes the map of the open drawing (`state.drawing`) in the element with id `elementId`, fitted to the
 * sheet, and adds the sheet to it. Returns the map and the sheet's bounds.
 * `onImageError(error)` is told when the one image of a server without tiles does not load; `onTilesLoaded()` each time
 * the tiles in view have all loaded.
 */
export function createMap(state, elementId, onImageError, onTilesLoaded = () => {}) {
  const drawing = state.drawing;
  const { minZoom, maxZoom } = zoomRange(drawing);
  const map = L.map(elementId, {
    crs: L.CRS.Simple, minZoom, maxZoom, attributionControl: false, zoomSnap: 0.25, zoomDelta: 1, keyboard: true,
  });
  map.on('viewreset zoom move resize', () => describeView(state, map));
  const bounds = L.latLngBounds(toLatLng(state, 0, drawing.height), toLatLng(state, drawing.width, 0));
  map.fitBounds(bounds);
  map.setMaxBounds(bounds.pad(1));
  describeView(state, map);

  if (drawing.tiles) {
    tileLayerPlanmark(drawing.tiles.template, {
      ...tileZooms(drawing.tiles, drawing.crs), minZoom: map.getMinZoom(), maxZoom: map.getMaxZoom(), bounds, noWrap: true,
      keepBuffer: 1, className: 'sheet-tiles', fetchTile: fetchImage,
    }).on('load', onTilesLoaded).addTo(map);
  } else {
    // A server without tiles: the whole image as one overlay.
    const generation = state.generation;
    fetchImage(drawingPath(drawing.name) + '/image').then((blob) => {
      if (generation === state.generation) L.imageOverlay(URL.createObjectURL(blob), bounds, { className: 'sheet-image' }).addTo(map).bringToBack();
    }, onImageError);
  }
  return map;
}

/** Image pixel (x, y) at the centre of the map's view. */
export function centrePixel(state) { return toPixel(state, state.map.getCenter()); }

// Image pixels <-> map latLng on Leaflet's L.CRS.Simple (docs/coordinates.md), and the zooms the page
// derives from a drawing. The page keeps markers and regions in image pixels of the full-size image;
// the map shows them at the drawing's "image zoom", the map zoom at which one map pixel is one image pixel.
// Plain logic: no page, no Leaflet (Tests/ReviewPageTests/coordinates.test.mjs runs it under node).
//
// CRS.Simple at zoom z scales by s = 2^z with the transformation (a, b, c, d) = (1, 0, -1, 0):
//   latLng -> pixel:  x = s * (a * lng + b),   y = s * (c * lat + d)
//   pixel -> latLng:  lng = (x / s - b) / a,   lat = (y / s - d) / c
// The operations are Leaflet's own, in its order (Transformation._transform and untransform), so the
// results are the same numbers Leaflet's map.project and map.unproject give, signed zeros included; like
// Leaflet, a scale of 0 (a zoom below -1074) or NaN is taken as 1.
const A = 1;
const B = 0;
const C = -1;
const D = 0;

/** The scale of L.CRS.Simple at map zoom `zoom`: 2^zoom (Leaflet's CRS.Simple.scale). */
export function scale(zoom) { return Math.pow(2, zoom); }

/** The latLng `{ lat, lng }` of image pixel (x, y) when map pixels at `zoom` are image pixels. */
export function pixelToLatLng(x, y, zoom) {
  const s = scale(zoom) || 1;
  return { lat: (y / s - D) / C, lng: (x / s - B) / A };
}

/** The image pixel `{ x, y }` of a latLng when map pixels at `zoom` are image pixels. */
export function latLngToPixel(lat, lng, zoom) {
  const s = scale(zoom) || 1;
  return { x: s * (A * lng + B), y: s * (C * lat + D) };
}

/**
 * How many map zooms a drawing's CRS flavour is away from Leaflet's: 0 for `leaflet` drawings, 8 for
 * `flutter` ones (flutter_map's CrsSimple scales by 256 * 2^z, which is Leaflet's 2^(z + 8)).
 */
export function zoomOffset(crs) { return crs === 'flutter' ? 8 : 0; }

/** The map zoom at which map pixels are image pixels: the drawing's zoom plus its flavour's offset. */
export function imageZoom(drawing) { return drawing.zoom + zoomOffset(drawing.crs); }

/**
 * The map's zoom range for a drawing: from one below the zoom where the whole sheet fits in 256 pixels
 * (its longer side), to two above the image zoom (each screen pixel then shows a quarter image pixel).
 */
export function zoomRange(drawing) {
  const zoom = imageZoom(drawing);
  const fit = zoom - Math.log2(Math.max(drawing.width, drawing.height) / 256);
  return { minZoom: Math.floor(fit) - 1, maxZoom: Math.floor(zoom) + 2 };
}

/** The zoom a deep link to a marker shows it at: one below the image zoom, within the map's maximum. */
export function markerZoom(drawing, maxZoom) { return Math.min(maxZoom, Math.floor(imageZoom(drawing)) - 1); }

/** Image pixels per CSS pixel when the map is at `mapZoom` and image pixels are map pixels at `zoom`. */
export function imagePixelsPerCssPixel(zoom, mapZoom) { return Math.pow(2, zoom - mapZoom); }

/**
 * The options of a drawing's tile layer from its JSON's `tiles` (`minZoom`, `maxZoom`, `tileSize`): pyramid
 * level z is shown at map zoom z + the flavour's offset, so the layer asks for exactly the pyramid's `{z}/{x}/{y}`.
 */
export function tileZooms(tiles, crs) {
  const offset = zoomOffset(crs);
  return {
    tileSize: tiles.tileSize, minNativeZoom: tiles.minZoom + offset, maxNativeZoom: tiles.maxZoom + offset, zoomOffset: -offset,
  };
}

// Image pixels <-> latLng on L.CRS.Simple and the zooms of a drawing. Expected values worked out by hand
// from docs/coordinates.md (lat = -y / 2^z, lng = x / 2^z), then checked against Leaflet's own results:
// Tests/PlanMarkGeometryTests/Vectors/crs.txt, written by Leaflet 1.6.0 itself (generate.js beside it), exact bits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  imagePixelsPerCssPixel, imageZoom, latLngToPixel, markerZoom, pixelToLatLng, scale, tileZooms, zoomOffset, zoomRange,
} from '../../Sources/PlanMarkServer/ReviewPage/coordinates.js';

test('the examples of docs/coordinates.md', () => {
  // planmark crs to-latlng --zoom 1 2000 400   ->  -200 1000
  assert.deepEqual(pixelToLatLng(2000, 400, 1), { lat: -200, lng: 1000 });
  // planmark crs to-pixel --zoom 1 -200 1000   ->  2000 400
  assert.deepEqual(latLngToPixel(-200, 1000, 1), { x: 2000, y: 400 });
  // to-latlng --zoom 2 of 8,-4 and 12 16: s = 4, so (lat, lng) = (4/4, 8/4) and (-16/4, 12/4).
  assert.deepEqual(pixelToLatLng(8, -4, 2), { lat: 1, lng: 2 });
  assert.deepEqual(pixelToLatLng(12, 16, 2), { lat: -4, lng: 3 });
  // crs bounds --size 2400x1600 --zoom 2: south-west is pixel (0, 1600), north-east pixel (2400, 0).
  assert.deepEqual(pixelToLatLng(0, 1600, 2), { lat: -400, lng: 0 });
  assert.deepEqual(pixelToLatLng(2400, 0, 2), { lat: -0, lng: 600 });
});

test('the sample drawing at zoom 8: a pixel of room 2.02 and back', () => {
  // 900 / 256 = 3.515625 and 400 / 256 = 1.5625, both exact in binary.
  assert.deepEqual(pixelToLatLng(900, 400, 8), { lat: -1.5625, lng: 3.515625 });
  assert.deepEqual(latLngToPixel(-1.5625, 3.515625, 8), { x: 900, y: 400 });
});

test('signed zeros come out as Leaflet gives them', () => {
  // Pixel (0, 0): lat = (0 / s - 0) / -1 = -0; latLng (-0, -0) -> pixel s * (-1 * -0 + 0) = +0, s * (1 * -0 + 0) = +0.
  const origin = pixelToLatLng(0, 0, 8);
  assert.ok(Object.is(origin.lat, -0) && Object.is(origin.lng, 0), JSON.stringify(origin));
  const back = latLngToPixel(-0, -0, 8);
  assert.ok(Object.is(back.x, 0) && Object.is(back.y, 0));
});

test('a negative and a fractional zoom', () => {
  // zoom -1: s = 1/2, so pixel (3, 5) is lat -10, lng 6.
  assert.deepEqual(pixelToLatLng(3, 5, -1), { lat: -10, lng: 6 });
  assert.equal(scale(-1), 0.5);
  assert.equal(scale(3), 8);
  // zoom -1100: 2^-1100 is below the smallest double, 0; Leaflet then takes the scale as 1, and so does the page.
  assert.deepEqual(pixelToLatLng(3, 5, -1100), { lat: -5, lng: 3 });
  assert.deepEqual(latLngToPixel(-5, 3, -1100), { x: 3, y: 5 });
  // zoom 0.5: s = sqrt(2); the pixel survives the round trip to within one part in 2^52.
  const { lat, lng } = pixelToLatLng(1000, 700, 0.5);
  const p = latLngToPixel(lat, lng, 0.5);
  assert.ok(Math.abs(p.x - 1000) < 1e-12 && Math.abs(p.y - 700) < 1e-12, JSON.stringify(p));
});

/** A double from its 16 hex digits (IEEE-754 bits). */
function fromHex(hex) {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt('0x' + hex));
  return view.getFloat64(0);
}

test("Leaflet's own conversions, bit for bit (crs.txt, the leaflet lines)", () => {
  const url = new URL('../PlanMarkGeometryTests/Vectors/crs.txt', import.meta.url);
  let pixels = 0;
  let latLngs = 0;
  for (const line of readFileSync(url, 'utf8').split('\n')) {
    const [flavour, kind, ...fields] = line.split(' ');
    if (flavour !== 'leaflet') continue;
    const [zoom, a, b, c, d] = fields.map(fromHex);
    if (kind === 'to-pixel') {
      const { x, y } = latLngToPixel(a, b, zoom);
      assert.ok(Object.is(x, c) && Object.is(y, d), `${line}: got ${x} ${y}`);
      pixels += 1;
    } else if (kind === 'to-latlng') {
      const { lat, lng } = pixelToLatLng(a, b, zoom);
      assert.ok(Object.is(lat, c) && Object.is(lng, d), `${line}: got ${lat} ${lng}`);
      latLngs += 1;
    } else if (kind === 'scale') {
      assert.ok(Object.is(scale(zoom), a), `${line}: got ${scale(zoom)}`);
    }
  }
  // The file's leaflet lines, counted with: grep -c '^leaflet to-pixel' and '^leaflet to-latlng'.
  assert.equal(pixels, 735);
  assert.equal(latLngs, 931);
});

test("a drawing's image zoom: its zoom, plus 8 for flutter_map's CRS", () => {
  assert.equal(zoomOffset('leaflet'), 0);
  assert.equal(zoomOffset('flutter'), 8);
  assert.equal(imageZoom({ zoom: 8, crs: 'leaflet' }), 8);
  assert.equal(imageZoom({ zoom: 0, crs: 'flutter' }), 8);
  assert.equal(imageZoom({ zoom: 2, crs: 'flutter' }), 10);
});

test("the map's zoom range and a marker's zoom for the sample drawing (2400 x 1600)", () => {
  // The sheet fits 256 pixels at 8 - log2(2400 / 256) = 8 - 3.23 = 4.77: the range is floor(4.77) - 1 = 3 to 8 + 2 = 10.
  assert.deepEqual(zoomRange({ width: 2400, height: 1600, zoom: 8, crs: 'leaflet' }), { minZoom: 3, maxZoom: 10 });
  assert.deepEqual(zoomRange({ width: 2400, height: 1600, zoom: 0, crs: 'flutter' }), { minZoom: 3, maxZoom: 10 });
  // A square 256-pixel sheet at zoom 0 fits at 0: from -1 to 2.
  assert.deepEqual(zoomRange({ width: 256, height: 256, zoom: 0, crs: 'leaflet' }), { minZoom: -1, maxZoom: 2 });
  assert.equal(markerZoom({ zoom: 8, crs: 'leaflet' }, 10), 7);
  assert.equal(markerZoom({ zoom: 8, crs: 'leaflet' }, 6), 6);
});

test('image pixels per CSS pixel: 2^(image zoom - map zoom)', () => {
  assert.equal(imagePixelsPerCssPixel(8, 8), 1);
  assert.equal(imagePixelsPerCssPixel(8, 5), 8);
  assert.equal(imagePixelsPerCssPixel(8, 10), 0.25);
});

test("the tile layer asks for the pyramid's own levels", () => {
  const tiles = { template: '/t/{z}/{x}/{y}.png', minZoom: 3, maxZoom: 8, tileSize: 256 };
  assert.deepEqual(tileZooms(tiles, 'leaflet'), { tileSize: 256, minNativeZoom: 3, maxNativeZoom: 8, zoomOffset: -0 });
  // flutter zoom 0: pyramid level z is map zoom z + 8, and the layer subtracts the 8 again for {z}.
  assert.deepEqual(tileZooms({ ...tiles, minZoom: 0, maxZoom: 0 }, 'flutter'), { tileSize: 256, minNativeZoom: 8, maxNativeZoom: 8, zoomOffset: -8 });
});

#!/usr/bin/env node
// Generates the CRS.Simple and fdlibm test vectors beside this script:
//   fdlibm.txt  Math.pow / Math.log results (exact bits) as a JavaScript engine computes them
//   crs.txt     Leaflet CRS.Simple and flutter_map CrsSimple conversions (exact bits)
//
// Run once with Node (any V8 before 14: Math.pow is fdlibm's pow in every V8; Math.log is fdlibm's
// log up to V8 13.x) and commit the output:
//   node Tests/PlanMarkGeometryTests/Vectors/generate.js
//
// Leaflet's conversions are computed by Leaflet itself: its source from Debian's node-leaflet
// (`apt-get install node-leaflet`, Leaflet 1.7.1), loaded with a minimal window stub, and checked
// against a transcription of Leaflet's code (CRS.Simple, Transformation, Projection.LonLat).
// flutter_map has no JavaScript build, so its CrsSimple is transcribed from flutter_map's
// lib/src/geo/crs.dart (scale = 256 * pow(2, z); untransform; _LonLat clamps with _clampSym).
//
// Line formats (every number is the IEEE-754 bit pattern as 16 hex digits):
//   pow X Y R            R = Math.pow(X, Y)
//   log X R              R = Math.log(X)
//   FLAVOUR scale Z S              S = crs.scale(Z)
//   FLAVOUR zoom S Z               Z = crs.zoom(S)
//   FLAVOUR to-pixel Z LAT LNG X Y      latLngToPoint
//   FLAVOUR to-latlng Z X Y LAT LNG     pointToLatLng
//   FLAVOUR bounds Z W H SWLAT SWLNG NELAT NELNG   corners pointToLatLng((0,H)), ((W,0))
//   FLAVOUR fits Z W H B           B = 1 when no pixel of a W x H drawing is clamped, else 0
'use strict';
const fs = require('fs');
const path = require('path');

// ---------------------------------------------------------------- bits and a seeded generator
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: u32[1] is the high word
function hex(x) {
  f64[0] = x;
  return u32[1].toString(16).padStart(8, '0') + u32[0].toString(16).padStart(8, '0');
}
function fromBits(hi, lo) {
  u32[1] = hi >>> 0;
  u32[0] = lo >>> 0;
  return f64[0];
}
function nextUp(x) {
  f64[0] = x;
  if (x === 0) return fromBits(0, 1);
  let lo = u32[0], hi = u32[1];
  if (x > 0) { lo = (lo + 1) >>> 0; if (lo === 0) hi += 1; } else { if (lo === 0) hi -= 1; lo = (lo - 1) >>> 0; }
  return fromBits(hi, lo);
}
function nextDown(x) { return -nextUp(-x); }

let seed = 0x5eed1234;
function rand32() { // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}
function uniform() { return (rand32() * 2 ** 21 + (rand32() >>> 11)) / 2 ** 53; } // [0, 1), 53 bits
function between(a, b) { return a + (b - a) * uniform(); }
function logUniform(a, b) { return Math.exp(between(Math.log(a), Math.log(b))); }
function pick(list) { return list[rand32() % list.length]; }

// ---------------------------------------------------------------- Leaflet, the library itself
globalThis.window = globalThis;
globalThis.devicePixelRatio = 1;
globalThis.screen = {};
globalThis.navigator = { userAgent: 'node', platform: 'node' };
globalThis.document = { documentElement: { style: {} }, createElement: () => ({ style: {} }) };
let L;
try {
  L = require('/usr/share/nodejs/leaflet/dist/leaflet-src.js');
} catch (e) {
  console.error('Leaflet not found: apt-get install node-leaflet');
  process.exit(1);
}
const Simple = L.CRS.Simple;

// The same operations transcribed from Leaflet's source, to check that the library above is the one
// described (scale || 1 as Transformation does).
const leafletByHand = {
  scale: (z) => Math.pow(2, z),
  zoom: (s) => Math.log(s) / Math.LN2,
  toPixel(z, lat, lng) {
    const s = this.scale(z) || 1;
    return [s * (1 * lng + 0), s * (-1 * lat + 0)];
  },
  toLatLng(z, x, y) {
    const s = this.scale(z) || 1;
    return [(y / s - 0) / -1, (x / s - 0) / 1];
  },
};
const leaflet = {
  scale: (z) => Simple.scale(z),
  zoom: (s) => Simple.zoom(s),
  toPixel(z, lat, lng) {
    const p = Simple.latLngToPoint(L.latLng(lat, lng), z);
    const q = leafletByHand.toPixel(z, lat, lng);
    same(q, [p.x, p.y], `Leaflet latLngToPoint(${lat}, ${lng}, ${z})`);
    return [p.x, p.y];
  },
  toLatLng(z, x, y) {
    const ll = Simple.pointToLatLng(L.point(x, y), z);
    const q = leafletByHand.toLatLng(z, x, y);
    same(q, [ll.lat, ll.lng], `Leaflet pointToLatLng(${x}, ${y}, ${z})`);
    return [ll.lat, ll.lng];
  },
  clamps: () => false,
};
function same(a, b, what) {
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) throw new Error(`${what}: transcription ${a} != library ${b}`);
  }
}

// ---------------------------------------------------------------- flutter_map CrsSimple, transcribed
// crs.dart: double scale(double zoom) => 256.0 * math.pow(2, zoom);
//           double zoom(double scale) => math.log(scale / 256) / math.ln2;
//           _Transformation(1, 0, -1, 0): transform  (scale * (a * x + b), scale * (c * y + d))
//                                          untransform ((x / scale - b) / a, (y / scale - d) / c)
//           _LonLat.unprojectXY(x, y) => LatLng(_inclusiveLat(y), _inclusiveLng(x))
//           _clampSym(value, limit) => value < -limit ? -limit : (value > limit ? limit : value)
const clampSym = (v, limit) => (v < -limit ? -limit : v > limit ? limit : v);
const flutter = {
  scale: (z) => 256.0 * Math.pow(2, z),
  zoom: (s) => Math.log(s / 256) / Math.LN2,
  toPixel(z, lat, lng) {
    const s = this.scale(z);
    return [s * (1 * lng + 0), s * (-1 * lat + 0)];
  },
  raw(z, x, y) {
    const s = this.scale(z);
    return [(y / s - 0) / -1, (x / s - 0) / 1];
  },
  toLatLng(z, x, y) {
    const [lat, lng] = this.raw(z, x, y);
    return [clampSym(lat, 90), clampSym(lng, 180)];
  },
  clamps(z, x, y) {
    const raw = this.raw(z, x, y);
    const out = this.toLatLng(z, x, y);
    return !Object.is(raw[0], out[0]) || !Object.is(raw[1], out[1]);
  },
};

// ---------------------------------------------------------------- fdlibm vectors
const powLines = [];
const logLines = [];
const pow = (x, y) => powLines.push(`pow ${hex(x)} ${hex(y)} ${hex(Math.pow(x, y))}`);
const log = (x) => logLines.push(`log ${hex(x)} ${hex(Math.log(x))}`);

// (a) Math.pow(2, zoom) for the zooms clients use.
const zooms = new Set();
for (let z = -30; z <= 30; z++) zooms.add(z);
for (const z of [0.1, 0.25, 0.5, 1 / 3, 2 / 3, 7.3, -2.7, 0.75, 2.5, -0.5, -0.25, 18.75, 3.14159, 22.9, -29.9]) zooms.add(z);
for (let k = -100; k <= 100; k++) { zooms.add(k / 10); zooms.add(k / 8); zooms.add(k / 3); }
for (let i = 0; i < 500; i++) zooms.add(between(-30, 30));
for (let z = -8; z <= 8; z++) { zooms.add(nextUp(z)); zooms.add(nextDown(z)); }
for (const z of zooms) pow(2, z);
// Integer exponents over the whole range, subnormal results and the overflow/underflow edges.
for (let n = -1080; n <= 1030; n += 1) if (n < -1000 || n > 1000 || n % 7 === 0) pow(2, n);
for (let i = 0; i < 200; i++) pow(2, between(-1080, -1020));
for (const z of [1023.9999999999999, 1024, nextDown(1024), -1074, -1074.5, -1075, nextDown(-1075), nextUp(-1075), -1076, -1022.5]) pow(2, z);

// General pow(x, y).
for (let i = 0; i < 800; i++) pow(logUniform(1e-12, 1e12), between(-40, 40));
for (let i = 0; i < 300; i++) pow(between(0, 4), between(-400, 400));
for (let i = 0; i < 200; i++) pow(-logUniform(1e-6, 1e6), Math.round(between(-60, 60)));
for (let i = 0; i < 100; i++) pow(-logUniform(1e-6, 1e6), between(-10, 10)); // NaN
for (let i = 0; i < 100; i++) pow(1 + between(-1e-7, 1e-7), pick([1, -1]) * logUniform(2 ** 31, 2 ** 70));
for (let i = 0; i < 100; i++) pow(between(0.5, 2), between(-2000, 2000)); // over/underflow
for (let i = 0; i < 100; i++) { // random bit patterns
  const x = fromBits(rand32(), rand32()), y = fromBits(rand32() & 0x403fffff, rand32());
  pow(x, y);
}
const specials = [0, -0, 1, -1, 2, -2, 0.5, -0.5, 3, -3, Infinity, -Infinity, NaN, 5e-324, -5e-324, 1e-310, -1e-310,
  Number.MAX_VALUE, -Number.MAX_VALUE, nextUp(1), nextDown(1), nextUp(-1), nextDown(-1), 1e20, -1e20, 0.3, -7, 2 ** 53, 2 ** 63 + 2 ** 11];
for (const x of specials) for (const y of specials) pow(x, y);

// log(s): the scales of the zooms above, their flutter_map form, and the rest of the line.
for (const z of zooms) log(Math.pow(2, z));
for (let i = 0; i < 300; i++) log(logUniform(1e-300, 1e300));
for (let i = 0; i < 200; i++) log(between(0.5, 2));
for (let i = 0; i < 100; i++) log(1 + between(-(2 ** -20), 2 ** -20));
for (let i = 0; i < 50; i++) log(fromBits(rand32() & 0x000fffff, rand32())); // subnormal
for (const x of [...specials, 1 + 2 ** -52, 1 - 2 ** -53, Math.E, 10, 256, 1 / 256, Math.SQRT2, Math.SQRT1_2]) log(x);

// ---------------------------------------------------------------- CRS vectors
const crsLines = [];
const crsZooms = [];
for (let z = -4; z <= 22; z++) crsZooms.push(z);
crsZooms.push(-30, 30, 0.1, 0.25, 0.5, 1 / 3, 7.3, -2.7, 2.5, -0.5, 18.75, -1.25, 12.6);
for (let i = 0; i < 6; i++) crsZooms.push(between(-8, 24));
const leafletOnlyZooms = [-1074, -1075, -1100]; // Leaflet's `scale || 1` when 2^z underflows to 0

function coordinate() {
  switch (rand32() % 8) {
    case 0: return pick([0, -0]);
    case 1: return Math.round(between(-20000, 20000));
    case 2: return Math.round(between(-20000, 20000)) + 0.5;
    case 3: return between(-20000, 20000);
    case 4: return between(-200, 200);
    case 5: return pick([1, -1]) * logUniform(1e-6, 1e15);
    case 6: return pick([2 ** 53, -(2 ** 53), 1e300, -1e300, 5e-324, 0.1, 1 / 3, 90, -90, 180, -180]);
    default: return between(-1, 1);
  }
}
const fixedPairs = [[0, 0], [-0, -0], [0, -0], [-0, 0], [700, 300], [-200, 1000], [0.5, -0.5], [90, -180], [-15000, 20000]];

for (const [flavourName, crs] of [['leaflet', leaflet], ['flutter', flutter]]) {
  const zs = flavourName === 'leaflet' ? [...crsZooms, ...leafletOnlyZooms] : crsZooms;
  for (const z of zs) {
    crsLines.push(`${flavourName} scale ${hex(z)} ${hex(crs.scale(z))}`);
    const pairs = [...fixedPairs];
    for (let i = 0; i < 6; i++) pairs.push([coordinate(), coordinate()]);
    for (const [a, b] of pairs) {
      const [x, y] = crs.toPixel(z, a, b);
      crsLines.push(`${flavourName} to-pixel ${hex(z)} ${hex(a)} ${hex(b)} ${hex(x)} ${hex(y)}`);
      const [lat, lng] = crs.toLatLng(z, a, b);
      crsLines.push(`${flavourName} to-latlng ${hex(z)} ${hex(a)} ${hex(b)} ${hex(lat)} ${hex(lng)}`);
    }
    // Pixels of a drawing, including ones clamped by flutter_map at this zoom.
    const s = crs.scale(z);
    for (let i = 0; i < 4; i++) {
      const x = Math.round(between(0, 400 * s)) + pick([0, 0.5]), y = Math.round(between(0, 200 * s));
      const [lat, lng] = crs.toLatLng(z, x, y);
      crsLines.push(`${flavourName} to-latlng ${hex(z)} ${hex(x)} ${hex(y)} ${hex(lat)} ${hex(lng)}`);
    }
    const sizes = [[0, 0], [1, 1], [20000, 15000], [180 * s, 90 * s], [nextUp(180 * s), 90 * s], [180 * s, nextUp(90 * s)],
      [360 * s, 180 * s], [Math.round(between(1, 300 * s)), Math.round(between(1, 150 * s))]];
    for (const [w, h] of sizes) {
      if (flavourName === 'leaflet') {
        // Leaflet itself: the bounds an image overlay gets, corner by corner.
        const sw = Simple.pointToLatLng(L.point(0, h), z), ne = Simple.pointToLatLng(L.point(w, 0), z);
        const box = L.latLngBounds(sw, ne);
        same([box.getSouthWest().lat, box.getSouthWest().lng, box.getNorthEast().lat, box.getNorthEast().lng],
          [sw.lat, sw.lng, ne.lat, ne.lng], `Leaflet bounds ${w}x${h} at ${z}`);
      }
      const sw = crs.toLatLng(z, 0, h), ne = crs.toLatLng(z, w, 0);
      crsLines.push(`${flavourName} bounds ${hex(z)} ${hex(w)} ${hex(h)} ${hex(sw[0])} ${hex(sw[1])} ${hex(ne[0])} ${hex(ne[1])}`);
      // Does any pixel of the drawing get clamped? The four corners decide it (conversion is monotonic).
      const clamped = [[0, 0], [w, 0], [0, h], [w, h]].some(([x, y]) => crs.clamps(z, x, y));
      crsLines.push(`${flavourName} fits ${hex(z)} ${hex(w)} ${hex(h)} ${clamped ? 0 : 1}`);
    }
  }
  // zoom(scale): for the scales of the zooms, and others.
  const scales = [];
  for (const z of crsZooms) scales.push(crs.scale(z));
  for (let i = 0; i < 100; i++) scales.push(logUniform(1e-9, 1e12));
  scales.push(1, 2, 256, 0.5, 1024, 3, 0, Infinity);
  for (const s of scales) crsLines.push(`${flavourName} zoom ${hex(s)} ${hex(crs.zoom(s))}`);
}

// ---------------------------------------------------------------- write
const header = (what) => `# ${what}\n# Generated by generate.js with Node ${process.version} (V8 ${process.versions.v8})` +
  `${L ? `, Leaflet ${L.version} (Debian node-leaflet)` : ''}. Do not edit; run the script again.\n`;
const dir = __dirname;
fs.writeFileSync(path.join(dir, 'fdlibm.txt'), header('Math.pow and Math.log, exact bits') + [...powLines, ...logLines].join('\n') + '\n');
fs.writeFileSync(path.join(dir, 'crs.txt'), header('Leaflet CRS.Simple and flutter_map CrsSimple, exact bits') + crsLines.join('\n') + '\n');
console.log(`fdlibm.txt: ${powLines.length} pow, ${logLines.length} log; crs.txt: ${crsLines.length} lines`);

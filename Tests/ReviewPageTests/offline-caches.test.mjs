// What the service worker keeps and how it answers, and a drawing's tiles; expected values worked out by hand from
// docs/tiles.md's scheme (and the A0 figure its benchmark prints: 2897 tiles).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CACHES, cacheRule, keptAddress, sizeText, tileAddresses } from '../../Sources/PlanMarkServer/ReviewPage/offline-caches.js';

test('the page, Leaflet and the JSON the page reads come from the network first', () => {
  for (const path of ['/', '/vocabulary', '/app/review.js', '/leaflet/leaflet.css']) assert.deepEqual(cacheRule('GET', path), { cache: CACHES.page, strategy: 'network-first' });
  for (const path of ['/me', '/drawings', '/drawings/plan', '/drawings/A%201/markers', '/drawings/plan/regions', '/drawings/plan/summary',
    '/drawings/plan/markers/12/history', '/drawings/plan/markers/12/comments', '/drawings/plan/markers/12/attachments/3']) {
    assert.deepEqual(cacheRule('GET', path), { cache: CACHES.data, strategy: 'network-first' }, path);
  }
});

test('a tile with its revision comes from what is kept first; without one from the network', () => {
  assert.deepEqual(cacheRule('GET', '/drawings/plan/tiles/7/2/1.png', '?v=ab12'), { cache: CACHES.tiles, strategy: 'cache-first' });
  assert.deepEqual(cacheRule('GET', '/drawings/plan/tiles/-3/0/0.png', ''), { cache: CACHES.tiles, strategy: 'network-first' });
});

test('writes, the worker itself, the event stream and the change feed are left to the network', () => {
  assert.equal(cacheRule('POST', '/drawings/plan/markers'), null);
  assert.equal(cacheRule('PATCH', '/drawings/plan/markers/1'), null);
  for (const path of ['/app/sw.js', '/drawings/plan/events', '/changes', '/openapi.json', '/metrics', '/drawings/plan/markers/1']) {
    assert.equal(cacheRule('GET', path), null, path);
  }
});

test("a drawing's tiles: every level, columns and rows by the scheme", () => {
  // 600 x 300 at zoom 1: level 1 has 3 x 2 tiles (256 px each), level 0 (512 px) 2 x 1, level -1 (1024 px) 1 x 1.
  const drawing = { width: 600, height: 300, zoom: 1, tiles: { template: '/d/t/{z}/{x}/{y}.png?v=s', minZoom: -1, maxZoom: 1, tileSize: 256 } };
  assert.deepEqual(tileAddresses(drawing), [
    '/d/t/1/0/0.png?v=s', '/d/t/1/1/0.png?v=s', '/d/t/1/2/0.png?v=s', '/d/t/1/0/1.png?v=s', '/d/t/1/1/1.png?v=s', '/d/t/1/2/1.png?v=s',
    '/d/t/0/0/0.png?v=s', '/d/t/0/1/0.png?v=s', '/d/t/-1/0/0.png?v=s',
  ]);
  // The A0 sheet at 300 dpi (14043 x 9933, zoom 0, levels -6..0).
  const a0 = { width: 14043, height: 9933, zoom: 0, tiles: { template: '{z}/{x}/{y}', minZoom: -6, maxZoom: 0, tileSize: 256 } };
  assert.equal(tileAddresses(a0).length, 2897);
  assert.deepEqual(tileAddresses({ width: 1, height: 1, zoom: 0 }), []);
  // A PDF drawing's tiles.maxZoom is two above floor(zoom) (levels drawn from the page on request): the pyramid's
  // levels only (600 x 300 at zoom 1.5: level 1 is 424 x 212 px, 2 x 1 tiles; level 0, 212 x 106, one; its maxZoom is 3).
  const pdf = { width: 600, height: 300, zoom: 1.5, tiles: { template: '{z}/{x}/{y}', minZoom: 0, maxZoom: 3, tileSize: 256 } };
  assert.deepEqual(tileAddresses(pdf), ['1/0/0', '1/1/0', '0/0/0']);
});

test('sizes in words', () => {
  assert.deepEqual([512, 840_000, 12_540_000, 2_500_000_000].map(sizeText), ['512 bytes', '840 KB', '12.5 MB', '2.50 GB']);
});

test("the service's JSON is kept per token: the address carries the SHA-256 of the Authorization header", async () => {
  const { createHash } = await import('node:crypto');
  const sha = (text) => createHash('sha256').update(text).digest('hex');
  assert.equal(await keptAddress('http://127.0.0.1:8080/drawings/plan', null), 'http://127.0.0.1:8080/drawings/plan');
  assert.equal(await keptAddress('http://127.0.0.1:8080/drawings/plan', 'Bearer ana-token'),
    `http://127.0.0.1:8080/drawings/plan?planmark-as=${sha('Bearer ana-token')}`);
  assert.equal(await keptAddress('http://127.0.0.1:8080/drawings/A%201/markers?zoom=3', 'Bearer bo'),
    `http://127.0.0.1:8080/drawings/A%201/markers?zoom=3&planmark-as=${sha('Bearer bo')}`);
  assert.notEqual(await keptAddress('http://h/me', 'Bearer a'), await keptAddress('http://h/me', 'Bearer b'));
});
